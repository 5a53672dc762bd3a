//! The heap of a `no_std` guest: a bump allocator. pixgate makes a fresh instance for every
//! call, so freeing memory is pointless: the allocator bumps a pointer from `__heap_base` and
//! the whole heap goes away with the instance. The initial memory (`--initial-memory` in
//! sandbox/build.rs) leaves room for a call's allocations without `memory.grow`; past it the
//! heap grows a page at a time, up to the sandbox's memory limit like any component.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use core::ptr::null_mut;

const PAGE: usize = 64 << 10;

struct Bump {
    /// The first free byte; 0 until the first allocation.
    next: Cell<usize>,
}

// SAFETY: a bundled step is single-threaded wasm: nothing shares the cell across threads.
unsafe impl Sync for Bump {}

#[global_allocator]
static HEAP: Bump = Bump { next: Cell::new(0) };

unsafe extern "C" {
    /// The end of the stack and the static data, where the heap starts (set by wasm-ld).
    static __heap_base: u8;
}

impl Bump {
    /// Moves the free pointer to `end`, growing the memory when it lies past it.
    fn reserve(&self, end: usize) -> bool {
        let have = core::arch::wasm32::memory_size(0) * PAGE;
        if end > have
            && core::arch::wasm32::memory_grow(0, (end - have).div_ceil(PAGE)) == usize::MAX
        {
            return false;
        }
        self.next.set(end);
        true
    }
}

unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let mut next = self.next.get();
        if next == 0 {
            next = &raw const __heap_base as usize;
        }
        let Some(start) = next.checked_add(layout.align() - 1) else {
            return null_mut();
        };
        let start = start & !(layout.align() - 1);
        match start.checked_add(layout.size()) {
            Some(end) if self.reserve(end) => start as *mut u8,
            _ => null_mut(),
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // The latest block gives its space back (a temporary string costs nothing); any other
        // lives as long as the instance.
        if ptr as usize + layout.size() == self.next.get() {
            self.next.set(ptr as usize);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The latest block grows or shrinks in place: a Vec that is pushed to while nothing
        // else is allocated never moves.
        if ptr as usize + layout.size() == self.next.get() {
            return match (ptr as usize).checked_add(new_size) {
                Some(end) if self.reserve(end) => ptr,
                _ => null_mut(),
            };
        }
        // SAFETY: the caller guarantees `layout` with `new_size` is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as for `GlobalAlloc::alloc`; both blocks are valid for the bytes copied.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            }
            new
        }
    }
}
