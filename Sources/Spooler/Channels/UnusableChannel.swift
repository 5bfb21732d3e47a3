import PrintModel

/// A saved printer the spooler cannot talk to at all (a URI it cannot read,
/// a raw printer saved without its model): every call reports the same
/// problem, so its jobs wait (or fail over) with a message that says what
/// to fix, instead of the agent stopping.
struct UnusableChannel: PrinterChannel {
    let problem: PrinterProblem

    func readiness() async -> Readiness { .trouble(problem) }
    func submit(_ submission: ChannelSubmission) async -> SubmitOutcome { .retryable(problem.text) }
    func status(of ticket: PrinterTicket) async -> FollowOutcome { .unreachable(problem.text) }
    func find(marker: String) async -> SearchOutcome { .cannotAsk(problem.text) }
    func cancel(_ ticket: PrinterTicket) async -> String? { problem.text }
    func openDrawer() async -> DrawerOutcome { .failed(problem.text) }
    func identify(actions: [String]) async -> IdentifyOutcome { .failed(problem.text) }
}
