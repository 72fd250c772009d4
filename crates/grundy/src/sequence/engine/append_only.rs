//! A vector of values that one thread appends to while other threads read the
//! values it has published: the hand-off between the engine, which computes
//! the Grundy values heap after heap, and its helper thread, which reads the
//! values below a heap to prepare the engine's next blocks (see
//! [`super::ahead`]).
//!
//! [`append_shared`] lends a vector's room to one [`Appender`] and to any
//! number of [`Published`] readers. The appender writes only past the values
//! published, and a value once published is never written again (it may not
//! be popped); readers see only published values. So no value is ever read
//! and written at once, and the vector is never reallocated while it is
//! shared (the appender refuses to write past its capacity). The one place of
//! `unsafe` in the sequence engine is here, in a few lines each stating why it
//! holds; the module's tests run under Miri (`cargo miri test`) in CI.
#![allow(
    unsafe_code,
    reason = "a reader sees a prefix of a vector that another thread appends to; the \
              published length (an atomic) keeps the two apart"
)]

use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Lends the room of `values` (its capacity) to `work`: an [`Appender`] that
/// appends after the values it holds, and a [`Published`] reader of the values
/// published so far, which may be sent to other threads living no longer than
/// `work`. The values appended are in `values` afterwards (those popped are
/// not; if `work` panics, only the values `values` held before are kept).
pub(crate) fn append_shared<T: Copy + Send + Sync, R>(
    values: &mut Vec<T>,
    work: impl FnOnce(&mut Appender<'_, T>, Published<'_, T>) -> R,
) -> R {
    let published = AtomicUsize::new(values.len());
    let mut appender = Appender {
        // `as_mut_ptr` makes no reference to the vector's slice, so the
        // pointer stays valid for reads and writes of its whole capacity
        // while `values` is borrowed here (and not touched otherwise).
        start: values.as_mut_ptr(),
        len: values.len(),
        capacity: values.capacity(),
        published: &published,
        _values: PhantomData,
    };
    let reader = Published {
        start: appender.start,
        published: &published,
        _values: PhantomData,
    };
    let result = work(&mut appender, reader);
    let len = appender.len;
    // SAFETY: the first `len` values are initialised: those `values` held, then
    // one written by `push` for each place the length grew, and `len` is at
    // most the capacity (`push` refuses to write past it).
    unsafe { values.set_len(len) };
    result
}

/// The one writer of a shared vector ([`append_shared`]): appends values,
/// pops those not yet published, and publishes.
#[derive(Debug)]
pub(crate) struct Appender<'a, T> {
    start: *mut T,
    len: usize,
    capacity: usize,
    published: &'a AtomicUsize,
    _values: PhantomData<&'a mut [T]>,
}

impl<T: Copy> Appender<'_, T> {
    /// The values written, published or not.
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` values are initialised, and none of them is
        // written while this borrow of the appender lives (writing needs
        // `&mut self`); readers only read.
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }

    /// Appends `value`.
    ///
    /// # Panics
    /// When the vector is full: its room is lent, never grown.
    pub(crate) fn push(&mut self, value: T) {
        assert!(
            self.len < self.capacity,
            "a shared vector of values has no room for more than {} values",
            self.capacity
        );
        // SAFETY: `len < capacity`, so the place is inside the allocation;
        // it is past every published value, so no reader reads it, and past
        // every value `as_slice` lent (those borrows have ended).
        unsafe { self.start.add(self.len).write(value) };
        self.len += 1;
    }

    /// Takes back the last value written.
    ///
    /// # Panics
    /// When there is none, or it was published: a published value stays.
    pub(crate) fn pop(&mut self) {
        assert!(
            self.len > self.published.load(Ordering::Relaxed),
            "a published value cannot be taken back"
        );
        self.len -= 1;
    }

    /// Lets readers see every value written so far.
    pub(crate) fn publish(&mut self) {
        // Release: a reader that sees the new length sees the values below it.
        self.published.store(self.len, Ordering::Release);
    }
}

/// A reader of a shared vector's published values ([`append_shared`]).
#[derive(Debug)]
pub(crate) struct Published<'a, T> {
    start: *const T,
    published: &'a AtomicUsize,
    _values: PhantomData<&'a [T]>,
}

impl<T> Clone for Published<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Published<'_, T> {}

// SAFETY: a reader only reads values that are published, which are never
// written again, and `T: Sync` lets them be read from another thread.
unsafe impl<T: Sync> Send for Published<'_, T> {}
// SAFETY: as for `Send`: reading through a shared reader reads only.
unsafe impl<T: Sync> Sync for Published<'_, T> {}

impl<'a, T> Published<'a, T> {
    /// The values published so far.
    pub(crate) fn values(self) -> &'a [T] {
        // Acquire: pairs with `publish`'s Release, so the values below the
        // length read are seen as written.
        let len = self.published.load(Ordering::Acquire);
        // SAFETY: the first `len` values are initialised and published, so
        // never written again while the vector is shared; the borrow lasts
        // no longer than the sharing (`'a`).
        unsafe { std::slice::from_raw_parts(self.start, len) }
    }

    /// The first `known` values.
    ///
    /// # Panics
    /// When fewer are published.
    pub(crate) fn below(self, known: usize) -> &'a [T] {
        let values = self.values();
        assert!(
            known <= values.len(),
            "values below {known} asked, {} published",
            values.len()
        );
        &values[..known]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appended_values_end_in_the_vector_and_popped_ones_do_not() {
        let mut values = Vec::with_capacity(8);
        values.extend([1u16, 2]);
        let seen = append_shared(&mut values, |appender, reader| {
            appender.push(3);
            assert_eq!(reader.values(), [1, 2]);
            appender.publish();
            appender.push(4);
            appender.pop();
            appender.push(5);
            assert_eq!(appender.as_slice(), [1, 2, 3, 5]);
            reader.values().len()
        });
        assert_eq!(seen, 3);
        assert_eq!(values, [1, 2, 3, 5]);
    }

    #[test]
    #[should_panic(expected = "no room")]
    fn the_room_lent_is_never_grown() {
        let mut values: Vec<u8> = Vec::with_capacity(2);
        append_shared(&mut values, |appender, _| {
            for value in 0..=u8::try_from(appender.capacity).unwrap() {
                appender.push(value);
            }
        });
    }

    #[test]
    #[should_panic(expected = "published value")]
    fn a_published_value_stays() {
        let mut values: Vec<u32> = Vec::with_capacity(4);
        append_shared(&mut values, |appender, _| {
            appender.push(1);
            appender.publish();
            appender.pop();
        });
    }

    #[test]
    #[should_panic(expected = "published")]
    fn a_reader_cannot_ask_for_unpublished_values() {
        let mut values: Vec<u32> = Vec::with_capacity(4);
        append_shared(&mut values, |appender, reader| {
            appender.push(1);
            reader.below(1);
        });
    }

    /// A reader on another thread sums the published values while the
    /// writer appends: every sum it sees is that of a prefix.
    #[test]
    fn a_reader_on_another_thread_sees_whole_prefixes() {
        let count: u32 = if cfg!(miri) { 200 } else { 20_000 };
        let mut values: Vec<u32> = Vec::with_capacity(count as usize);
        append_shared(&mut values, |appender, reader| {
            std::thread::scope(|scope| {
                let reading = scope.spawn(move || {
                    let mut last = 0;
                    while last < count as usize {
                        let seen = reader.values();
                        for (heap, &value) in seen.iter().enumerate() {
                            assert_eq!(value, heap as u32 * 3);
                        }
                        last = seen.len();
                        std::hint::spin_loop();
                    }
                });
                for heap in 0..count {
                    appender.push(heap * 3);
                    appender.publish();
                }
                reading.join().unwrap();
            });
        });
        assert_eq!(values.len(), count as usize);
    }
}
