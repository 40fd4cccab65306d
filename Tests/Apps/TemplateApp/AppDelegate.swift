#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HID
import UIKit

/// An application written as Xcode's template writes one (a non-final
/// `UIResponder` subclass marked `@main`), for the end-to-end tests of the
/// main thread's run loop. Each line it prints is one thing that ran, in
/// the order it ran; the tests read them.
///
///     TemplateApp main-thread   schedules every kind of main-thread work
///                               at launch and prints each as it runs
///     TemplateApp turn-order    on a touch, schedules work of each kind
///                               and prints the order it runs in, against
///                               layout
///     TemplateApp tracking      drags a scroll view while a timer for
///                               `.default` and one for `.common` repeat,
///                               and prints which fired during the drag
///     TemplateApp manual-clock  on the manual clock, queues main-thread
///                               work and a UIKit timer, and prints what
///                               one advance(by:) ran
///     TemplateApp idle          does nothing: for the idle CPU figure
///     TemplateApp wake-up N     measures N wake-ups from a background
///                               thread's DispatchQueue.main.async
@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let arguments = CommandLine.arguments.dropFirst()
        switch arguments.first {
        case "main-thread": MainThreadWorkProbe.start()
        case "turn-order": window = TurnOrderProbe.makeWindow()
        case "tracking": window = TrackingProbe.makeWindow()
        case "manual-clock": ManualClockProbe.run()
        case "idle": Probe.log("idle")
        case "wake-up": WakeUpProbe.start(count: arguments.dropFirst().first.flatMap { Int($0) } ?? 100)
        default: Probe.log("unknown mode \(arguments.first ?? "(none)")")
        }
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) { Probe.log("didBecomeActive") }
    func applicationWillTerminate(_ application: UIApplication) { Probe.log("willTerminate") }
}

/// Prints lines from any thread, whole.
enum Probe {
    private static let lock = NSLock()

    static func log(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        var text = line + "\n"
        text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    }

    /// Ends the process if the work has not all run within `seconds`: a
    /// thread of its own, so that it works whatever the main thread does.
    static func exit(after seconds: Double, saying line: String) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            log(line)
            Glibc.exit(1)
        }
    }
}

/// Every kind of main-thread work an iOS app schedules, from launch.
@MainActor
enum MainThreadWorkProbe {
    static let expected = [
        "RunLoop.main.perform", "DispatchQueue.main.async", "OperationQueue.main",
        "Task @MainActor", "hop from a background queue", "DispatchQueue.main.sync from a background queue",
        "notification delivered on the main queue", "Task resumed after await", "asyncAfter",
        "Timer.scheduledTimer", "Timer in .common modes",
    ]
    static var ran: [String] = []

    static func ran(_ name: String) {
        MainActor.assertIsolated()
        precondition(Thread.isMainThread, "\(name) ran off the main thread")
        Probe.log(name)
        ran.append(name)
        if Set(ran) == Set(expected) { Probe.log("all ran"); exit(0) }
    }

    static func start() {
        Probe.exit(after: 5, saying: "timed out")
        RunLoop.main.perform { MainActor.assumeIsolated { ran("RunLoop.main.perform") } }
        DispatchQueue.main.async { ran("DispatchQueue.main.async") }
        OperationQueue.main.addOperation { MainActor.assumeIsolated { ran("OperationQueue.main") } }
        Task { @MainActor in
            ran("Task @MainActor")
            try? await Task.sleep(nanoseconds: 10_000_000)
            ran("Task resumed after await")
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { ran("asyncAfter") }
        _ = Timer.scheduledTimer(withTimeInterval: 0.3, repeats: false) { _ in
            MainActor.assumeIsolated { ran("Timer.scheduledTimer") }
        }
        // Foundation on Linux starts `Timer(timeInterval:repeats:block:)` at
        // once rather than after the interval: give the date.
        RunLoop.main.add(Timer(fire: Date() + 0.6, interval: 0, repeats: false) { _ in
            MainActor.assumeIsolated { ran("Timer in .common modes") }
        }, forMode: .common)
        let name = Notification.Name("TemplateApp.probe")
        _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { ran("notification delivered on the main queue") }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
            DispatchQueue.main.async { ran("hop from a background queue") }
            DispatchQueue.main.sync { ran("DispatchQueue.main.sync from a background queue") }
            NotificationCenter.default.post(name: name, object: nil)
        }
    }
}

/// On a touch: work of each kind, and a layout, all started from the
/// touch handler, and the order they run in.
@MainActor
enum TurnOrderProbe {
    /// The sending end of the input socket, kept open until the process ends.
    static var sender: SendableBox<HIDSocket>?

    static func makeWindow() -> UIWindow {
        let window = UIWindow(frame: UIScreen.main.bounds)
        let view = TurnOrderView(frame: window.bounds)
        window.addSubview(view)
        window.isHidden = false
        Probe.exit(after: 10, saying: "timed out")
        // The touch comes through the input port, from another thread, as
        // the event server's would.
        let senderBox = SendableBox(try! UIApplication.shared.inputPort.openSocket())
        sender = senderBox
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            let contact = DigitizerContact(identifier: 1, phase: .began, x: 10, y: 10)
            try! senderBox.value.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [contact])))
        }
        return window
    }
}

final class SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

final class TurnOrderView: UIView {
    private var touched = false

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        Probe.log("touchesBegan")
        touched = true
        RunLoop.main.perform { Probe.log("RunLoop.main.perform") }
        DispatchQueue.main.async { Probe.log("DispatchQueue.main.async") }
        Task { @MainActor in Probe.log("Task @MainActor") }
        setNeedsLayout()
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) {
            Probe.log("done")
            exit(0)
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        if touched { Probe.log("layoutSubviews") }
    }
}

/// Foundation's timers and the tracking mode: a timer scheduled for
/// `.default` waits while a scroll view drags; one added for `.common` does not.
@MainActor
enum TrackingProbe {
    static var sender: SendableBox<HIDSocket>?
    static var printed: Set<String> = []
    static var scrollView: UIScrollView?

    static func scrolling() -> Bool { scrollView.map { $0.isDragging || $0.isDecelerating } ?? false }

    static func once(_ line: String) {
        if printed.insert(line).inserted { Probe.log(line) }
    }

    static func makeWindow() -> UIWindow {
        let window = UIWindow(frame: UIScreen.main.bounds)
        let scrollView = UIScrollView(frame: window.bounds)
        scrollView.contentSize = CGSize(width: window.bounds.width, height: 10 * window.bounds.height)
        window.addSubview(scrollView)
        window.isHidden = false
        self.scrollView = scrollView
        Probe.exit(after: 10, saying: "timed out")
        _ = Timer.scheduledTimer(withTimeInterval: 0.005, repeats: true) { _ in
            MainActor.assumeIsolated {
                once(scrolling() ? "default-mode timer fired while scrolling" : "default-mode timer fired")
                if printed.contains("lifted") && !scrolling() { once("default-mode timer fired after scrolling"); exit(0) }
            }
        }
        RunLoop.main.add(Timer(fire: Date(), interval: 0.005, repeats: true) { _ in
            MainActor.assumeIsolated {
                if scrolling() { once("common-mode timer fired while scrolling in \(RunLoop.Mode.tracking == UIApplication.shared.runLoop.currentMode ? "tracking" : "default") mode") }
            }
        }, forMode: .common)
        // A slow drag, held still before the lift so that nothing decelerates.
        let box = SendableBox(try! UIApplication.shared.inputPort.openSocket())
        sender = box
        Thread.detachNewThread {
            func send(_ phase: DigitizerContact.Phase, _ y: Double) {
                let contact = DigitizerContact(identifier: 1, phase: phase, x: 100, y: y)
                try! box.value.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [contact])))
            }
            Thread.sleep(forTimeInterval: 0.1)
            send(.began, 600)
            for step in 1...30 {
                Thread.sleep(forTimeInterval: 0.008)
                send(.moved, 600 - Double(step) * 10)
            }
            // Long enough for a loaded machine to give the main thread a turn.
            Thread.sleep(forTimeInterval: 0.5)
            send(.moved, 300)
            send(.ended, 300)
            DispatchQueue.main.async { once("lifted") }
        }
        return window
    }
}

/// On the manual clock, main-queue work and main-actor tasks run within
/// the next turn of `advance(by:)`, beside UIKit's timers.
@MainActor
enum ManualClockProbe {
    static func run() {
        let runLoop = UIApplication.shared.runLoop
        runLoop.useManualClock()
        DispatchQueue.main.async { Probe.log("DispatchQueue.main.async") }
        Task { @MainActor in Probe.log("Task @MainActor") }
        var ticked = false
        let link = CADisplayLink { _ in
            if !ticked { Probe.log("display link") }
            ticked = true
        }
        link.add(to: .main, forMode: .common)
        Probe.log("advance")
        runLoop.advance(by: 0.02)
        link.invalidate()
        Probe.log("advanced")
        exit(0)
    }
}

/// Wake-ups from a background thread: how long from `DispatchQueue.main.async`
/// to the block running on the idle main thread.
@MainActor
enum WakeUpProbe {
    static func start(count: Int) {
        Probe.exit(after: 30, saying: "timed out")
        Thread.detachNewThread {
            let measured = Latencies()
            for _ in 0..<count {
                Thread.sleep(forTimeInterval: 0.005)
                let sent = DispatchTime.now().uptimeNanoseconds
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.main.async {
                    measured.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1000)
                    done.signal()
                }
                done.wait()
            }
            let latencies = measured.sorted()
            func percentile(_ p: Double) -> String { String(format: "%.1f", latencies[Int(Double(latencies.count - 1) * p)]) }
            Probe.log("wake-up us p50 \(percentile(0.5)) p99 \(percentile(0.99)) max \(percentile(1))")
            exit(0)
        }
    }
}

/// Wake-up latencies in microseconds, appended from the main thread and
/// read from the measuring one.
final class Latencies: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []

    func append(_ value: Double) {
        lock.lock(); defer { lock.unlock() }
        values.append(value)
    }

    func sorted() -> [Double] {
        lock.lock(); defer { lock.unlock() }
        return values.sorted()
    }
}
