//! A pool of reusable values for computer players: a double-dummy solver owns a large
//! transposition table (4 MB for Zole, 24 MB for Belote) that forgets its positions by
//! generation, so handing a used one to the next move costs nothing, while building a new one
//! per move allocates and writes the whole table (milliseconds, and memory churn when many
//! tables run). The pool keeps at most as many values as the machine runs threads at once;
//! more are built when more moves think at the same time, and dropped afterwards.

use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

pub struct Pool<T: 'static> {
    free: Mutex<Vec<T>>,
}

impl<T: 'static> Pool<T> {
    pub const fn new() -> Pool<T> {
        Pool {
            free: Mutex::new(Vec::new()),
        }
    }

    /// A value from the pool, or a new one from `make`; it goes back when dropped.
    pub fn take(&'static self, make: impl FnOnce() -> T) -> Pooled<T> {
        let item = self.free.lock().map(|mut f| f.pop()).ok().flatten();
        Pooled {
            item: Some(item.unwrap_or_else(make)),
            pool: self,
        }
    }

    /// Values waiting in the pool.
    pub fn idle(&self) -> usize {
        self.free.lock().map(|f| f.len()).unwrap_or(0)
    }

    fn give_back(&self, item: T) {
        let keep = std::thread::available_parallelism().map_or(2, |n| n.get());
        if let Ok(mut free) = self.free.lock() {
            if free.len() < keep {
                free.push(item);
            }
        }
    }
}

impl<T: 'static> Default for Pool<T> {
    fn default() -> Self {
        Pool::new()
    }
}

/// A value lent by a `Pool`.
pub struct Pooled<T: 'static> {
    item: Option<T>,
    pool: &'static Pool<T>,
}

impl<T> Deref for Pooled<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.item.as_ref().expect("a pooled value until dropped")
    }
}

impl<T> DerefMut for Pooled<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.item.as_mut().expect("a pooled value until dropped")
    }
}

impl<T> Drop for Pooled<T> {
    fn drop(&mut self) {
        if let Some(item) = self.item.take() {
            self.pool.give_back(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static POOL: Pool<Vec<u8>> = Pool::new();

    #[test]
    fn a_value_goes_back_and_is_lent_again_up_to_the_thread_count() {
        let keep = std::thread::available_parallelism().map_or(2, |n| n.get());
        {
            let mut a = POOL.take(|| vec![1]);
            a.push(2);
        }
        assert_eq!(POOL.idle(), 1);
        // The used value comes back as it was left: the user resets what it needs.
        assert_eq!(*POOL.take(Vec::new), vec![1, 2]);
        let many: Vec<_> = (0..keep + 3).map(|i| POOL.take(|| vec![i as u8])).collect();
        assert_eq!(POOL.idle(), 0);
        drop(many);
        assert_eq!(POOL.idle(), keep);
    }
}
