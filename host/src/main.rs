//! The `pixgate` binary: its command line ([`cli`]) over the `pixgate` library, which holds
//! the service and knows nothing of the commands that start or drive it.

// mimalloc: the request path allocates many small strings (inputs lowered into the sandbox,
// JSON bodies); glibc's malloc was a tenth of the chain's time in the profile.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
