import UIKit

/// What `openuikit scroll [drag|fling|paging]` prints: a demo list of 1,000 rows, 44 pt
/// each, in a 390×844 window, scrolled by a synthetic finger through the
/// real input path. Prints every finger step, every delegate call and the
/// content offset at every 60 Hz frame, with the time on the run loop's clock.
///
/// - `drag`: a slow drag up by 300 pt, a pause, and a release without
///   velocity; then a drag down past the top, which rubber-bands and
///   springs back.
/// - `fling`: a quick flick up by 300 pt; the list coasts to a stop.
/// - `paging`: the same flick on a list with paging on (a page is the
///   screen's height): it lands on the next page.
@MainActor
enum ScrollSession {
    static func run(_ session: ScrollCommand.Session) -> String {
        let application = UIApplication.shared
        application.resetForTesting()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        window.makeKeyAndVisible()
        let list = UIScrollView(frame: window.bounds)
        list.contentSize = CGSize(width: 390, height: CGFloat(rowCount) * rowHeight)
        for row in 0..<rowCount {
            list.addSubview(UIView(frame: CGRect(x: 0, y: CGFloat(row) * rowHeight, width: 390, height: rowHeight)))
        }
        list.isPagingEnabled = session == .paging
        window.addSubview(list)

        let synthesizer = TouchSynthesizer(window: window)
        let printer = SessionPrinter(clock: synthesizer)
        list.delegate = printer
        printer.add("demo: \(rowCount) rows of \(Int(rowHeight)) pt in a 390×844 scroll view; \(session.rawValue)"
                    + (list.isPagingEnabled ? " (paging)" : ""))
        printer.add("  time  what                                                 offset.y  first row")

        func drag(from start: CGPoint, by distance: CGFloat, steps: Int, over seconds: TimeInterval, pause: TimeInterval) {
            printer.note("finger down at (\(Int(start.x)), \(Int(start.y)))")
            let id = synthesizer.touchDown(at: start)
            for step in 1...steps {
                synthesizer.advance(by: seconds / Double(steps))
                let point = CGPoint(x: start.x, y: start.y + distance * CGFloat(step) / CGFloat(steps))
                printer.note("finger moves to (\(Int(point.x)), \(Int(point.y)))")
                synthesizer.touchMove(id, to: point)
            }
            if pause > 0 {
                printer.note(String(format: "finger holds still for %.1f s", pause))
                synthesizer.advance(by: pause)
            }
            printer.note("finger up")
            synthesizer.touchUp(id)
        }

        switch session {
        case .drag:
            drag(from: CGPoint(x: 195, y: 600), by: -300, steps: 10, over: 0.5, pause: 0.2)
            synthesizer.advance(by: 0.5)
            printer.note("setContentOffset(.zero, animated: false)")
            list.setContentOffset(.zero, animated: false)
            drag(from: CGPoint(x: 195, y: 200), by: 300, steps: 10, over: 0.5, pause: 0.2)
        case .fling, .paging:
            drag(from: CGPoint(x: 195, y: 600), by: -300, steps: 6, over: 0.1, pause: 0)
        }
        synthesizer.advance(by: 6)
        return printer.lines.joined(separator: "\n") + "\n"
    }

    static let rowCount = 1_000
    static let rowHeight: CGFloat = 44
}

/// Prints a line per finger step, per delegate call and per frame.
@MainActor
private final class SessionPrinter: UIScrollViewDelegate {
    private(set) var lines: [String] = []
    private let clock: TouchSynthesizer

    init(clock: TouchSynthesizer) { self.clock = clock }

    func add(_ line: String) { lines.append(line) }

    /// Something the demo does, before it happens.
    func note(_ what: String) {
        add(String(format: "%6.3f  %@", clock.now, what))
    }

    /// Something the scroll view did, indented under its cause, with the offset.
    private func add(_ what: String, _ scrollView: UIScrollView) {
        let offset = scrollView.contentOffset.y
        let row = max(0, Int((offset / ScrollSession.rowHeight).rounded(.down)))
        add(String(format: "%6.3f    %@ %9.2f  %9d", clock.now, what.padding(toLength: 50, withPad: " ", startingAt: 0), offset, row))
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        add(scrollView.isDragging ? "dragging" : scrollView.isDecelerating ? "decelerating" : "scrolled", scrollView)
    }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { add("willBeginDragging", scrollView) }
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: UnsafeMutablePointer<CGPoint>) {
        add(String(format: "willEndDragging v = %.3f pt/ms, target %.2f", velocity.y, targetContentOffset.pointee.y), scrollView)
    }
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        add("didEndDragging(willDecelerate: \(decelerate))", scrollView)
    }
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) { add("willBeginDecelerating", scrollView) }
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { add("didEndDecelerating", scrollView) }
}
