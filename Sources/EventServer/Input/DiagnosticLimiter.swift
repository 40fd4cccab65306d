import HID

/// The one rate limit on the server's diagnostics: each kind of problem
/// is reported a few times per window, then counted, and the count is
/// reported as one line ("… and 1,234 more like it") when the window
/// ends. A stream full of one mistake, a client sending nothing but bad
/// acknowledgements, a loop failing at every turn: none can flood the log,
/// and none goes unmentioned.
///
/// The kind is what went wrong ("malformed event", "unknown code"), never
/// the values in it: random bytes make every code a new value.
struct DiagnosticLimiter: Sendable {
    /// How many problems of one kind are reported per window.
    static let reportsPerWindow = 5
    /// How long a window lasts, in seconds.
    static let window = 10.0

    private struct Tally {
        var windowStart: Double
        var reported = 0
        var suppressed = 0
    }

    private var tallies: [String: Tally] = [:]
    private(set) var messages: [String] = []
    private let prefix: String

    init(prefix: String) {
        self.prefix = prefix
    }

    /// Reports a problem of `kind` at `now` (seconds of `CLOCK_MONOTONIC`),
    /// or counts it if its kind was reported enough in this window. The
    /// message is only made for problems that are reported.
    mutating func report(_ kind: String, at now: Double = monotonicSeconds(), _ message: @autoclosure () -> String) {
        var tally = tallies[kind] ?? Tally(windowStart: now)
        if now - tally.windowStart >= Self.window {
            summarize(kind, tally)
            tally = Tally(windowStart: now)
        }
        if tally.reported < Self.reportsPerWindow {
            tally.reported += 1
            messages.append(prefix + message())
        } else {
            tally.suppressed += 1
        }
        tallies[kind] = tally
    }

    /// Summarizes the windows over by `now`; every window when `now` is nil
    /// (the source or the server is ending).
    mutating func summarize(endedBy now: Double?) {
        for (kind, tally) in tallies where now.map({ $0 - tally.windowStart >= Self.window }) ?? true {
            summarize(kind, tally)
            tallies[kind] = nil
        }
    }

    private mutating func summarize(_ kind: String, _ tally: Tally) {
        guard tally.suppressed > 0 else { return }
        messages.append("\(prefix)… and \(tally.suppressed) more like it (\(kind))")
    }

    /// The lines to log since the last call, with the summaries of the
    /// windows over by `now`.
    mutating func take(at now: Double = monotonicSeconds()) -> [String] {
        summarize(endedBy: now)
        defer { messages.removeAll() }
        return messages
    }
}
