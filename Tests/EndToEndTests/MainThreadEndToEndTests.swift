#if canImport(Glibc)
import Glibc
#endif
import TestExpectations
import Testing

/// The main run loop is the main thread's only loop, as on iOS: an
/// application written as Xcode's template writes one (Tests/Apps/TemplateApp)
/// schedules main-thread work of every kind and reports what ran, in order.
@Suite struct MainThreadEndToEndTests {
    /// What TemplateApp's `main-thread` mode schedules at launch.
    static let everyKind = [
        "RunLoop.main.perform", "DispatchQueue.main.async", "OperationQueue.main",
        "Task @MainActor", "hop from a background queue", "DispatchQueue.main.sync from a background queue",
        "notification delivered on the main queue", "Task resumed after await", "asyncAfter",
        "Timer.scheduledTimer", "Timer in .common modes",
    ]

    /// Checks that every kind ran, and the orders iOS guarantees: blocks
    /// performed on the run loop before the main queue's work in the first
    /// turn; the main queue first in, first out; a task after its own await;
    /// timers and `asyncAfter` by their due times (50, 300, 600 ms: far
    /// enough apart that a loaded machine keeps their order).
    func checkEveryKindRan(_ app: ChildProcess) {
        #expect(app.waitFor("all ran", timeout: 10))
        expectEqual(app.waitForExit(), 0)
        let ran = app.lines.filter { Self.everyKind.contains($0) }
        expectEqual(Set(ran), Set(Self.everyKind), "ran: \(app.lines)")
        func position(_ line: String) -> Int { ran.firstIndex(of: line) ?? Int.max }
        expectEqual(ran.prefix(4), ["RunLoop.main.perform", "DispatchQueue.main.async", "OperationQueue.main", "Task @MainActor"])
        #expect(position("Task @MainActor") < position("Task resumed after await"))
        #expect(position("asyncAfter") < position("Timer.scheduledTimer"))
        #expect(position("Timer.scheduledTimer") < position("Timer in .common modes"))
        #expect(!app.lines.contains("timed out"))
    }

    @Test func everyKindOfMainThreadWorkRunsWithoutAServer() throws {
        let app = try ChildProcess("TemplateApp", ["main-thread"])
        checkEveryKindRan(app)
    }

    @Test func everyKindOfMainThreadWorkRunsWithAServer() throws {
        let (server, socket) = try startServer()
        let app = try ChildProcess("TemplateApp", ["main-thread"], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "template"])
        checkEveryKindRan(app)
        _ = server
    }

    /// Work started from a touch handler runs as in one turn of iOS's run
    /// loop: the performed block right after the event source, then the
    /// main queue in order (the task's job is on it too), then, before the
    /// loop sleeps, the update cycle's layout.
    @Test func workStartedByATouchRunsBeforeTheUpdateCycle() throws {
        let app = try ChildProcess("TemplateApp", ["turn-order"])
        #expect(app.waitFor("done"))
        expectEqual(app.waitForExit(), 0)
        let order = app.lines.filter { ["touchesBegan", "RunLoop.main.perform", "DispatchQueue.main.async", "Task @MainActor", "layoutSubviews"].contains($0) }
        expectEqual(order, ["touchesBegan", "RunLoop.main.perform", "DispatchQueue.main.async", "Task @MainActor", "layoutSubviews"])
    }

    /// While a scroll view drags, the main run loop is in the tracking mode:
    /// a `Timer.scheduledTimer` (the default mode) waits until the drag
    /// ends; a timer added for `.common` keeps firing.
    @Test func defaultModeTimersWaitWhileAScrollViewDrags() throws {
        let app = try ChildProcess("TemplateApp", ["tracking"])
        #expect(app.waitFor("default-mode timer fired after scrolling"))
        expectEqual(app.waitForExit(), 0)
        #expect(app.lines.contains("default-mode timer fired"))
        #expect(app.lines.contains("common-mode timer fired while scrolling in tracking mode"))
        #expect(!app.lines.contains("default-mode timer fired while scrolling"))
    }

    /// On the manual clock, one `advance(by:)` runs the main queue's work
    /// and the main actor's tasks in its first turn, and UIKit's timers (a
    /// display link) on the way.
    @Test func advancingTheManualClockRunsMainQueueWork() throws {
        let app = try ChildProcess("TemplateApp", ["manual-clock"])
        expectEqual(app.waitForExit(), 0)
        expectEqual(app.lines, ["advance", "DispatchQueue.main.async", "Task @MainActor", "display link", "advanced"])
    }

    /// `UIApplicationMain(argc, argv, nil, NSStringFromClass(AppDelegate.self))`
    /// makes the delegate from its name.
    @Test func aMainSwiftNamingTheDelegateClassLaunches() throws {
        let app = try ChildProcess("MainSwiftApp")
        expectEqual(app.waitForExit(), 0)
        expectEqual(app.lines, ["launched AppDelegate from its name", "a main-actor task ran"])
    }

    /// An idle application sleeps: over a second it uses a few milliseconds
    /// of processor time at most (a loop that polled would use the second).
    @Test func anIdleApplicationSleeps() throws {
        let app = try ChildProcess("TemplateApp", ["idle"])
        #expect(app.waitFor("didBecomeActive"))
        let before = try processorTicks(app.pid)
        app.collect(for: 1)
        let used = try processorTicks(app.pid) - before
        #expect(used <= 5, "an idle application used \(used) clock ticks in a second")
    }

    /// The processor time `pid` used so far, user and system, in clock ticks.
    func processorTicks(_ pid: pid_t) throws -> Int {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { throw ChildProcessError("cannot read /proc/\(pid)/stat") }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { throw ChildProcessError("empty /proc/\(pid)/stat") }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        guard let close = text.lastIndex(of: ")") else { throw ChildProcessError("malformed /proc/\(pid)/stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { throw ChildProcessError("malformed /proc/\(pid)/stat: \(text)") }
        return user + system
    }
}
