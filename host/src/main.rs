// mimalloc: the request path allocates many small strings (inputs lowered into the sandbox,
// JSON bodies); glibc's malloc was a tenth of the chain's time in the profile.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    pixgate::cli::main()
}
