#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// A two-process demo and the end-to-end tests' application: the screen is
/// split into a left and a right view, and every touch call they receive,
/// and every step of the application's life, is printed on a line of its
/// own, such as `right began 2 (100,200) (300,400)`.
///
/// Options: `--hang-on-began SECONDS` makes the first `touchesBegan` (of
/// either view) block the main thread that long, to play an application
/// that stops responding. `--scroll` shows a tall scroll view instead of
/// the two views and prints its vertical content offset as it scrolls
/// (`offset 20`), and `end dragging` when the fingers let go.
/// `--display-link` runs a display link and prints `display link N` at
/// every tenth frame. `--coalesced` follows each `moved` line with one per
/// touch listing the samples the move coalesced
/// (`right coalesced 3 (110,10) (120,10) (130,10)`).
///
/// `--animate SECONDS` makes the right view clip a white stripe and
/// slides it one width to the left over that many seconds
/// (`UIView.animate`) when a finger lands on the left view, then puts it back, and prints `animation finished after F frames, R refreshes`:
/// F the display refreshes the application was signalled for while it ran,
/// R the refreshes of the display that passed (by their timestamps).
///
/// At launch it prints the screen (`launched 390x844@3`) and its window's
/// safe area (`safe area 47,0,34,0`: top, left, bottom, right).
///
/// The left view is red and the right one blue; with `--highlight` a view
/// turns white while a finger is on it, so that the frames the application
/// shows change (drawing costs time, which the watchdog tests keep out of).
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    /// Seconds the next `touchesBegan` hangs for, once.
    var hangOnBegan = option("--hang-on-began")
    let scrollLogger = ScrollLogger()
    var displayLinkFrames = 0

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let bounds = UIScreen.main.bounds
        let window = UIWindow(frame: bounds)
        if CommandLine.arguments.contains("--scroll") {
            let scrollView = UIScrollView(frame: bounds)
            scrollView.contentSize = CGSize(width: bounds.width, height: bounds.height * 20)
            scrollView.delegate = scrollLogger
            window.addSubview(scrollView)
        } else {
            let half = bounds.width / 2
            window.addSubview(LoggingView(name: "left", color: .red, frame: CGRect(x: 0, y: 0, width: half, height: bounds.height)))
            let right = LoggingView(name: "right", color: .blue, frame: CGRect(x: half, y: 0, width: half, height: bounds.height))
            if option("--animate") != nil {
                // Slid as a list would be: clipping a sublayer that reaches past it.
                right.clipsToBounds = true
                let stripe = UIView(frame: CGRect(x: -10, y: bounds.height / 4, width: half + 20, height: bounds.height / 2))
                stripe.backgroundColor = .white
                right.addSubview(stripe)
            }
            window.addSubview(right)
        }
        if CommandLine.arguments.contains("--display-link") {
            CADisplayLink(target: self, selector: AppDelegate.displayLinkFired).add(to: .main, forMode: .common)
        }
        window.isHidden = false
        self.window = window
        log("launched \(describe(bounds.width))x\(describe(bounds.height))@\(describe(UIScreen.main.scale))")
        let safe = window.safeAreaInsets
        log("safe area \([safe.top, safe.left, safe.bottom, safe.right].map(describe).joined(separator: ","))")
        return true
    }

    /// Runs `--animate`'s slide, counting the frames it is shown in.
    func slide(_ view: UIView, over seconds: Double) {
        let counter = RefreshCounter()
        let link = CADisplayLink(target: counter, selector: RefreshCounter.refreshed)
        link.add(to: .main, forMode: .common)
        let start = view.center
        UIView.animate(withDuration: seconds, delay: 0, options: [.curveLinear, .allowUserInteraction]) {
            view.center.x -= view.bounds.width
        } completion: { _ in
            view.center = start
            // The slide ended at the refresh this link fires for next, or has just fired for.
            let refreshes = ((max(link.targetTimestamp, counter.lastTarget) - counter.firstTarget) / link.duration).rounded()
            link.invalidate()
            log("animation finished after \(counter.frames) frames, \(Int(refreshes) + 1) refreshes")
        }
    }

    func displayLinkFired(_ link: CADisplayLink) {
        displayLinkFrames += 1
        if displayLinkFrames % 10 == 0 { log("display link \(displayLinkFrames)") }
    }

    func applicationDidBecomeActive(_ application: UIApplication) { log("didBecomeActive") }
    func applicationWillResignActive(_ application: UIApplication) { log("willResignActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { log("didEnterBackground") }
    func applicationWillEnterForeground(_ application: UIApplication) { log("willEnterForeground") }
    func applicationWillTerminate(_ application: UIApplication) { log("willTerminate") }
}

/// Counts the frames of `--animate`'s slide and remembers the first and last target times.
@MainActor
final class RefreshCounter {
    var frames = 0
    var firstTarget = 0.0
    var lastTarget = 0.0

    func refreshed(_ link: CADisplayLink) {
        if frames == 0 { firstTarget = link.targetTimestamp }
        frames += 1
        lastTarget = link.targetTimestamp
    }
}

/// Prints the scroll view's vertical offset as it changes, and the end of dragging.
final class ScrollLogger: NSObject, UIScrollViewDelegate {
    func scrollViewDidScroll(_ scrollView: UIScrollView) { log("offset \(describe(scrollView.contentOffset.y))") }
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) { log("end dragging") }
}

final class LoggingView: UIView {
    let name: String
    let color: UIColor

    init(name: String, color: UIColor, frame: CGRect) {
        self.name = name
        self.color = color
        super.init(frame: frame)
        backgroundColor = color
        isMultipleTouchEnabled = true
        // The name the inspector and the trace show for the view.
        accessibilityIdentifier = name
    }

    required init?(coder: NSCoder) { nil }

    static let highlights = CommandLine.arguments.contains("--highlight")

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        if Self.highlights { backgroundColor = .white }
        report("began", touches)
        if name == "left", let seconds = option("--animate"), let delegate = UIApplication.shared.delegate as? AppDelegate,
           let right = superview?.subviews.last {
            delegate.slide(right, over: seconds)
        }
        if let delegate = UIApplication.shared.delegate as? AppDelegate, let seconds = delegate.hangOnBegan {
            delegate.hangOnBegan = nil
            log("\(name) hanging for \(describe(seconds)) s")
            usleep(UInt32(seconds * 1_000_000))
        }
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        report("moved", touches)
        guard CommandLine.arguments.contains("--coalesced"), let event else { return }
        let ordered = touches.map { ($0, $0.location(in: nil)) }.sorted { ($0.1.x, $0.1.y) < ($1.1.x, $1.1.y) }
        for (touch, _) in ordered {
            let samples = event.coalescedTouches(for: touch) ?? []
            log("\(name) coalesced \(samples.count) \(samples.map { describe($0.location(in: nil)) }.joined(separator: " "))")
        }
    }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { restoreColor(); report("ended", touches) }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { restoreColor(); report("cancelled", touches) }

    private func restoreColor() {
        if Self.highlights { backgroundColor = color }
    }

    private func report(_ phase: String, _ touches: Set<UITouch>) {
        let points = touches.map { $0.location(in: nil) }
            .sorted { ($0.x, $0.y) < ($1.x, $1.y) }
            .map(describe)
        log("\(name) \(phase) \(touches.count) \(points.joined(separator: " "))")
    }
}

/// The number after `name` on the command line.
func option(_ name: String) -> Double? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return Double(arguments[index + 1])
}

/// To one decimal, and whole numbers without a fraction.
func describe(_ value: CGFloat) -> String {
    let tenths = (value * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(Double(tenths))
}

/// A point as `(x,y)`.
func describe(_ point: CGPoint) -> String {
    "(\(describe(point.x)),\(describe(point.y)))"
}

/// One line on standard output, written at once (a pipe would otherwise hold it).
func log(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
