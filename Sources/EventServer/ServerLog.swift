/// The server's log. Lines about the server's life (a client connecting,
/// an application coming to the front) are written as they come; problems
/// that a client, a source or the machine can repeat at will go through
/// one ``DiagnosticLimiter``, keyed by their kind, so that no flood of
/// them can fill the log or slow the loop.
final class ServerLog {
    private let sink: @Sendable (String) -> Void
    private var limiter = DiagnosticLimiter(prefix: "")

    init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Writes a line about the server's life.
    func callAsFunction(_ line: String) {
        sink(line)
    }

    /// Writes a problem of `kind`, or counts it if that kind was written
    /// often enough lately.
    func report(_ kind: String, _ message: @autoclosure () -> String) {
        limiter.report(kind, message())
        for line in limiter.take() { sink(line) }
    }

    /// Writes how many problems of each kind were counted and not written,
    /// for the windows over by now (every window when the server stops).
    func summarize(final: Bool = false) {
        if final { limiter.summarize(endedBy: nil) }
        for line in limiter.take() { sink(line) }
    }
}
