//! The C math functions the binary's dependencies call, defined from the `libm` crate
//! (Rust's port of musl's libm): they replace glibc's `libm.so.6`, which the process
//! then does not load.
//!
//! Rhai's number functions (`sin`, `exp`, `log`, ...), the plots (`hypot`, `atan2`,
//! `powf`, ...) and the Fourier transforms that count splits (`sincos`, for their
//! twiddle factors) are the only callers, and rarely run; but a library the binary needs is
//! mapped and relocated at every start. Without this module `grundy solve 'nim(3, 5)'`
//! peaks at 6.0 MB of resident memory, with it at 5.5 MB: 0.5 MB saved on every run
//! (medians of 30 runs each of the `tests` profile's binary, `/usr/bin/time -f %M`;
//! docs/BENCHMARKS.md, "The binary's start-up footprint"). The linker resolves these
//! names here first; `--as-needed` then drops `libm.so.6`. `tests/cli/layout.rs` checks
//! that the binary does not need it: a dependency calling a function missing below
//! brings it back, and the function is to be added here.
#![allow(unsafe_code)] // `no_mangle` names a symbol; every body is a plain call.

/// Defines each C function by the `libm` function of the same name and signature.
macro_rules! from_libm {
    ($($name:ident($($argument:ident: $type:ty),*) -> $result:ty;)*) => {
        $(
            #[doc = concat!("C's `", stringify!($name), "`, computed by `libm::", stringify!($name), "`.")]
            #[unsafe(no_mangle)]
            pub extern "C" fn $name($($argument: $type),*) -> $result {
                libm::$name($($argument),*)
            }
        )*
    };
}

from_libm! {
    acos(x: f64) -> f64;
    asin(x: f64) -> f64;
    atan(x: f64) -> f64;
    atan2(y: f64, x: f64) -> f64;
    cos(x: f64) -> f64;
    cosh(x: f64) -> f64;
    exp(x: f64) -> f64;
    hypot(x: f64, y: f64) -> f64;
    log(x: f64) -> f64;
    log10(x: f64) -> f64;
    log1p(x: f64) -> f64;
    log2(x: f64) -> f64;
    pow(x: f64, y: f64) -> f64;
    powf(x: f32, y: f32) -> f32;
    sin(x: f64) -> f64;
    sinh(x: f64) -> f64;
    tan(x: f64) -> f64;
    tanh(x: f64) -> f64;
}

/// C's `sincos(x, &sin, &cos)`, computed by `libm::sincos`.
///
/// # Safety
/// `sin` and `cos` point to writable doubles, as every C caller passes them.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sincos(x: f64, sin: *mut f64, cos: *mut f64) {
    let (sine, cosine) = libm::sincos(x);
    // SAFETY: the caller passes two valid, writable pointers (the C contract).
    unsafe {
        sin.write(sine);
        cos.write(cosine);
    }
}
