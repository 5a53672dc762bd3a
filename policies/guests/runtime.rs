//! What a `no_std` bundled step needs besides its logic: a heap and a panic handler. Each
//! guest includes this file as its `runtime` module (`#[path = "../../runtime.rs"]`).
//!
//! The guests are built for `wasm32-unknown-unknown` (sandbox/build.rs), so their core modules
//! import nothing but the world's `host-log`: the component imports no WASI and a call pays
//! for no WASI context. The heap is `heap.rs`'s bump allocator.

#[path = "heap.rs"]
mod heap;

/// A panic leaves its message in the step's log (what `eprintln!` gives a std component),
/// then traps.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    use alloc::string::ToString;
    let mut message = info.to_string();
    // Within the log budget (1 KB by default), so the trap is what the host reports.
    if message.len() > 512 {
        let mut end = 512;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    crate::pixgate::chain::host_log::log(crate::pixgate::chain::host_log::Level::Error, &message);
    core::arch::wasm32::unreachable()
}
