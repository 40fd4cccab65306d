/// Collects a reader's diagnostics, reporting each kind of problem a few
/// times and then only counting it, so that a stream full of one mistake
/// (a hostile or broken device, a corrupt file) cannot flood the log. The
/// message is only made for problems that are reported.
struct DiagnosticLimiter: Sendable {
    /// How many times a kind of problem is reported before it is counted silently.
    static let reportsPerProblem = 5

    /// One kind of problem: a name, and a code when each code counts apart
    /// (an unknown axis 0x7f is a different problem from an unknown axis 0x7e).
    struct Problem: Hashable, Sendable {
        var name: String
        var code: Int
    }

    private var counts: [Problem: Int] = [:]
    private(set) var messages: [String] = []
    private let prefix: String

    init(prefix: String) {
        self.prefix = prefix
    }

    mutating func report(_ name: String, code: Int = 0, _ message: @autoclosure () -> String) {
        let problem = Problem(name: name, code: code)
        let count = counts[problem, default: 0] + 1
        counts[problem] = count
        if count <= Self.reportsPerProblem {
            messages.append(prefix + message())
        } else if count == Self.reportsPerProblem + 1 {
            messages.append("\(prefix)further problems of this kind (\(name)) are not reported")
        }
    }

    mutating func take() -> [String] {
        defer { messages.removeAll() }
        return messages
    }
}
