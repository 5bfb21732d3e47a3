import Foundation
import PrintModel

/// A job as the API shows it (`Job` in openapi.json).
enum JobView {
    static func make(_ job: PrintJob) -> Components.Schemas.Job {
        .init(id: job.id.rawValue, name: job.name, role: job.role.name,
              state: Components.Schemas.Job.StatePayload(rawValue: job.state.rawValue) ?? .setAside,
              stateReasons: job.stateReasons, copies: job.copies, attempts: job.attempts,
              printer: job.printer?.name, printerURI: job.printer?.uri, impressionsCompleted: job.impressionsCompleted,
              lastError: job.lastError, createdAt: job.createdAt, completedAt: job.completedAt)
    }
}

/// A saved printer in its role, as last seen (`RolePrinter` in openapi.json).
enum PrinterView {
    static func make(_ assignment: RoleAssignment) -> Components.Schemas.RolePrinter {
        let capabilities = assignment.printer.capabilities
        return .init(id: assignment.printer.id, name: assignment.printer.name, uri: assignment.printer.uri,
                     primary: assignment.isPrimary, state: capabilities.state.rawValue,
                     stateReasons: capabilities.stateReasons.map(\.keyword), mediaReady: capabilities.readyMedia,
                     paperLow: capabilities.stateReasons.contains { ["media-low", "media-near-end"].contains($0.keyword) },
                     contactedAt: assignment.printer.contactedAt)
    }
}
