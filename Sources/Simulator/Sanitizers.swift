import Glibc

/// What the test process was built with, for the few checks that a
/// sanitizer's runtime makes meaningless (`scripts/sanitize.sh`).
public enum Sanitizers {
    /// AddressSanitizer's runtime is linked: it replaces glibc's malloc (no
    /// arenas) and keeps freed memory in quarantine (resident memory is not
    /// what a kiosk's would be).
    public static let addressSanitizerLinked = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
}
