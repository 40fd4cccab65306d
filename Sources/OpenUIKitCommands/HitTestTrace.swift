import UIKit

/// What `openuikit trace` prints: the seed article's traced hierarchy, tapped once.
///
/// Root view ← light grey (33,147,240,128), then yellow (33,303,240,128);
/// light grey ← red (0,0,196,100), then green (138,57,94,63). The views log
/// their overridden methods, as the article's print statements do, with
/// indentation showing how deep in the hit-test recursion each call is.
@MainActor
enum HitTestTrace {
    static let tapPoint = CGPoint(x: 56.67, y: 167)

    /// The article-style trace, or with `json` every trace record of the
    /// tap as a JSON line (`docs/trace.md`).
    static func run(json: Bool = false) -> String {
        let application = UIApplication.shared
        application.resetForTesting()
        let trace = Trace()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 306, height: 460))
        window.makeKeyAndVisible()
        let root = TracedView(name: "root", frame: window.bounds, trace: trace)
        let lightGrey = TracedView(name: "light grey", frame: CGRect(x: 33, y: 147, width: 240, height: 128), trace: trace)
        let yellow = TracedView(name: "yellow", frame: CGRect(x: 33, y: 303, width: 240, height: 128), trace: trace)
        let red = TracedView(name: "red", frame: CGRect(x: 0, y: 0, width: 196, height: 100), trace: trace)
        let green = TracedView(name: "green", frame: CGRect(x: 138, y: 57, width: 94, height: 63), trace: trace)
        window.addSubview(root)
        root.addSubview(lightGrey)
        root.addSubview(yellow)
        lightGrey.addSubview(red)
        lightGrey.addSubview(green)

        let synthesizer = TouchSynthesizer(window: window)
        application.runLoop.runUntilIdle()
        if json {
            return JSONTrace.lines { synthesizer.tap(at: tapPoint) }
        }
        trace.add("tap at window point \(describe(tapPoint))")
        synthesizer.tap(at: tapPoint)
        return trace.lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ point: CGPoint) -> String {
        "(\(String(format: "%.2f", point.x)), \(String(format: "%.2f", point.y)))"
    }
}

@MainActor
final class Trace {
    private(set) var lines: [String] = []
    var depth = 0

    func add(_ line: String) {
        lines.append(String(repeating: "  ", count: depth) + line)
    }
}

/// A view that reports each overridden call, and passes touches on (calls super).
@MainActor
final class TracedView: UIView {
    let name: String
    let trace: Trace

    init(name: String, frame: CGRect, trace: Trace) {
        self.name = name
        self.trace = trace
        super.init(frame: frame)
        accessibilityIdentifier = name
    }

    required init?(coder: NSCoder) { nil }

    override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard name != "root" else { return super.hitTest(point, with: event) }
        trace.add("\(name).hitTest at \(HitTestTrace.describe(point))")
        trace.depth += 1
        let result = super.hitTest(point, with: event)
        trace.depth -= 1
        trace.add("\(name).hitTest → \((result as? TracedView)?.name ?? "nil")")
        return result
    }

    override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
        let inside = super.point(inside: point, with: event)
        if name != "root" { trace.add("\(name).point(inside: \(HitTestTrace.describe(point))) → \(inside)") }
        return inside
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        trace.add("\(name).touchesBegan")
        super.touchesBegan(touches, with: event)
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        trace.add("\(name).touchesEnded")
        super.touchesEnded(touches, with: event)
    }
}

/// What `openuikit trace --json` prints: every trace record of what `body`
/// makes happen, one JSON line each.
@MainActor
enum JSONTrace {
    static func lines(_ body: () -> Void) -> String {
        let application = UIApplication.shared
        let encoder = TraceJSONEncoder()
        var lines: [String] = []
        application.traceHandler = { lines.append(encoder.encode($0)) }
        body()
        application.traceHandler = nil
        return lines.map { $0 + "\n" }.joined()
    }
}
