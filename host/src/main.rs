fn main() -> std::process::ExitCode {
    pixgate::cli::main()
}
