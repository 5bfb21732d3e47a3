/// What a watched folder tells whoever runs it, for the log. Each message
/// names the file and folder and says what to do.
public enum FolderReport: Sendable, Equatable {
    /// An entry moved to `failed/` unopened (a link, a pipe, a folder, a
    /// file over the size limit, a name that cannot be claimed, a file
    /// offered too often): its name and the explanation written beside it.
    case refused(name: String, explanation: String)
    /// The folder could not do its work, e.g. `failed/` is a link to
    /// somewhere else: nothing was written there. Worth an error.
    case trouble(String)
    /// The folder itself went away; it is watched again once it is back.
    case gone(String)
    /// The folder is back and watched again.
    case watchedAgain(String)
    /// A move an agent was stopped in the middle of was finished at start
    /// (a file already linked into `done/`): the file is not offered again.
    case recovered(String)
}
