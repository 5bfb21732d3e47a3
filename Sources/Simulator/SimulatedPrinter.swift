public import PrintModel

/// A printer to simulate with `ippeveprinter`: a real IPP Everywhere printer
/// on loopback whose attributes come from an ipptool-syntax attribute file.
///
/// The presets describe the printers a kiosk meets: an 80 mm and a 58 mm
/// receipt roll, a 4x6 in label printer, an office A4 printer.
public struct SimulatedPrinter: Sendable, Hashable {
    /// The printer's name: its `printer-name` and its DNS-SD service name.
    public var name: String
    /// `printer-location` (ippeveprinter's `-l`; it refuses a second one from the file).
    public var location: String
    /// The job kinds the attribute file declares in `printer-kind`, for test assertions.
    public var kinds: Set<JobKind>
    /// ipptool-syntax attribute file text (`ATTR type name value`). ippeveprinter
    /// adds printer-name, printer-location, document-format-supported and the
    /// state attributes itself; declaring them again duplicates them.
    public var attributes: String
    /// A command ippeveprinter runs for each job (`-c`); the job completes when it exits.
    public var command: String?
    /// Keep every document received (`-k`), byte for byte, in the spool directory.
    public var keepsDocuments: Bool
    /// Record every job received (see `recording(_:delay:exitStatus:reportsMediaEmpty:)`);
    /// the lab then runs its recording script as the `-c` command instead of `command`.
    public var recording: Recording?

    public init(name: String, location: String = "", kinds: Set<JobKind>, attributes: String,
                command: String? = nil, keepsDocuments: Bool = false, recording: Recording? = nil) {
        self.name = name; self.location = location; self.kinds = kinds
        self.attributes = attributes; self.command = command; self.keepsDocuments = keepsDocuments
        self.recording = recording
    }

    /// The same printer under another name (two of a kind must not share a DNS-SD name).
    public func named(_ name: String) -> SimulatedPrinter {
        var copy = self
        copy.name = name
        return copy
    }
}
