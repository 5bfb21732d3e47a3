import Foundation
import OpenAPIRuntime
import PrintModel
import Spooler

/// `GET /v1/events`: the journal's events as Server-Sent Events, each with
/// its id, its type as the SSE event name and an `Event` object as data.
enum EventStream {
    /// The body: the missed events (or a `gap`), then the live ones until the
    /// agent stops, `end` is called, or the client goes. Nothing is buffered
    /// here: the feed reads the journal's bounded buffer as the client reads.
    static func body(_ subscription: EventJournal.Subscription, capacity: Int) -> HTTPBody {
        let gap = Components.Schemas.Event(_type: .gap, reason: "Some events were not kept (the agent restarted, the id is "
            + "older than the last \(capacity), or this client read too slowly); read the jobs you follow again.")
        let events = EventFeed(subscription: subscription).map { item -> ServerSentEventWithJSONData<Components.Schemas.Event> in
            switch item {
            case .gap: .init(event: "gap", data: gap)
            case .entry(let entry): sse(entry)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return HTTPBody(events.asEncodedServerSentEventsWithJSONData(encoder: encoder), length: .unknown, iterationBehavior: .single)
    }

    static func sse(_ entry: EventJournal.Entry) -> ServerSentEventWithJSONData<Components.Schemas.Event> {
        let data = make(entry.event)
        return .init(event: data._type.rawValue, data: data, id: entry.id)
    }

    /// A spooler event as the API shows it.
    static func make(_ event: SpoolerEvent) -> Components.Schemas.Event {
        typealias Event = Components.Schemas.Event
        switch event {
        case .sending(let job, _, _, _), .finished(let job), .recovered(let job, _):
            return Event(_type: .job, job: JobView.make(job), role: job.role.name, printer: job.printer?.name)
        case .retrying(let job, _, _), .unknownFate(let job, _, _), .namedMediaFallback(let job, _), .mediaChanged(let job, _, _, _):
            return Event(_type: .job, job: JobView.make(job), role: job.role.name, printer: job.printer?.name, reason: event.description)
        case .failover(let job, let from, let to):
            return Event(_type: .failover, job: JobView.make(job), role: job.role.name, printer: to.name, from: from.name,
                         reason: event.description)
        case .printerTrouble(let role, let printer, _):
            return Event(_type: .printerTrouble, role: role.name, printer: printer.name, reason: event.description)
        case .printerWarning(let role, let printer, let reasons):
            let paperLow = reasons.contains { $0 == "media-low" || $0 == "media-near-end" }
            return Event(_type: paperLow ? .paperLow : .printerWarning, role: role.name, printer: printer.name, reasons: reasons,
                         reason: event.description)
        case .printerRecovered(let role, let printer):
            return Event(_type: .printerRecovered, role: role.name, printer: printer.name, reason: event.description)
        case .printerMoved(let role, let printer, let from, let to):
            return Event(_type: .printerMoved, role: role.name, printer: printer.name, from: from, to: to, reason: event.description)
        case .setAside(let id, let role, _):
            return Event(_type: .setAside, jobId: id.rawValue, role: role.name, reason: event.description)
        case .roleFailed(let role, _, _):
            return Event(_type: .roleFailed, role: role.name, reason: event.description)
        }
    }
}
