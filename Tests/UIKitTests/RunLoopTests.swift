import TestExpectations
import Testing
import HID
@testable import UIKit
@testable import QuartzCore

@MainActor
@Suite struct RunLoopTests {
    @Test func timersFireInOrderAtTheirOwnTimesOnAManualClock() {
        let loop = ApplicationRunLoop()
        let clock = loop.useManualClock()
        let start = clock.now
        expectEqual(start, 0)
        var fired: [(String, TimeInterval)] = []
        loop.schedule(after: 0.5) { _ in fired.append(("b", clock.now - start)) }
        loop.schedule(after: 0.2) { _ in fired.append(("a", clock.now - start)) }
        loop.schedule(after: 0.5) { _ in fired.append(("c", clock.now - start)) }
        let late = loop.schedule(after: 2) { _ in fired.append(("late", clock.now - start)) }
        loop.advance(by: 0.1)
        #expect(fired.isEmpty)
        loop.advance(by: 0.9)
        expectEqual(fired.map(\.0), ["a", "b", "c"])
        expectEqual(fired.map(\.1), [0.2, 0.5, 0.5])
        late.invalidate()
        loop.advance(by: 5)
        expectEqual(fired.count, 3)
        expectEqual(clock.now - start, 6)
    }

    @Test func invalidatedTimersThatNeverComeDueDoNotPileUp() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var fired: [Int] = []
        let keeper = loop.schedule(after: 100) { _ in fired.append(-1) }
        // A gesture's worth of timeouts at a time, each invalidated long before it is due.
        for round in 0..<1_000 {
            let timer = loop.schedule(after: 10) { _ in fired.append(round) }
            timer.invalidate()
            #expect(loop.timerListCount <= 32)
        }
        let last = loop.schedule(after: 50) { _ in fired.append(1_000) }
        loop.advance(by: 200)
        expectEqual(fired, [1_000, -1])
        #expect(!keeper.isValid && !last.isValid)
    }

    @Test func aRescheduledTimerFiresOnceAtItsNewDateWhateverItsStateWas() {
        let loop = ApplicationRunLoop()
        let clock = loop.useManualClock()
        var firings: [TimeInterval] = []
        let timer = loop.schedule(after: 1) { _ in firings.append(clock.now) }
        // Still waiting: it moves, and is listed once.
        loop.reschedule(timer, after: 2)
        expectEqual(loop.timerListCount, 1)
        loop.advance(by: 1.5)
        #expect(firings.isEmpty)
        loop.advance(by: 1)
        expectEqual(firings, [2])
        #expect(!timer.isValid)
        // Fired: it becomes valid and fires again.
        loop.reschedule(timer, after: 1)
        #expect(timer.isValid)
        // Invalidated before it was due: it comes back.
        timer.invalidate()
        loop.reschedule(timer, after: 0.5)
        loop.advance(by: 5)
        expectEqual(firings, [2, 3])
        expectEqual(loop.timerListCount, 0)
    }

    @Test func repeatingTimerFiresEachInterval() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var count = 0
        loop.schedule(after: 0.1, repeatInterval: 0.1) { timer in
            count += 1
            if count == 5 { timer.invalidate() }
        }
        loop.advance(by: 0.35)
        expectEqual(count, 3)
        loop.advance(by: 10)
        expectEqual(count, 5)
    }

    @Test func aTimerScheduledByATimerThatFallsDueWithinTheAdvanceFires() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var log: [String] = []
        loop.schedule(after: 0.1) { _ in
            log.append("first")
            loop.schedule(after: 0.1) { _ in log.append("second") }
        }
        loop.advance(by: 0.25)
        expectEqual(log, ["first", "second"])
    }

    @Test func signalledSourcesRunAndObserversSeeTheTurn() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var log: [String] = []
        let source = RunLoopSource { log.append("source") }
        loop.add(source)
        loop.add(RunLoopObserver(activities: [.entry, .beforeWaiting, .exit]) { activity in
            switch activity {
            case .entry: log.append("entry")
            case .beforeWaiting: log.append("beforeWaiting")
            case .exit: log.append("exit")
            default: log.append("other")
            }
        })
        loop.runUntilIdle()
        expectEqual(log, ["entry", "beforeWaiting", "exit"])
        log.removeAll()
        source.signal()
        loop.runUntilIdle()
        expectEqual(log, ["entry", "source", "beforeWaiting", "exit"])
    }

    /// Each observer hears only its activities, and a removed one nothing,
    /// whatever the others watch.
    @Test func observersHearTheirActivitiesUntilRemoved() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var log: [String] = []
        let edges = RunLoopObserver(activities: [.entry, .exit]) { log.append($0 == .entry ? "entry" : "exit") }
        let waits = RunLoopObserver(activities: .beforeWaiting) { _ in log.append("beforeWaiting") }
        loop.add(edges)
        loop.add(waits)
        loop.runUntilIdle()
        expectEqual(log, ["entry", "beforeWaiting", "exit"])
        log.removeAll()
        loop.remove(waits)
        loop.runUntilIdle()
        expectEqual(log, ["entry", "exit"])
        log.removeAll()
        loop.remove(edges)
        loop.add(waits)
        loop.runUntilIdle()
        expectEqual(log, ["beforeWaiting"])
    }

    /// Moving a manual clock first finishes the current turn (its observers
    /// see changes made between turns before any timer fires), unless every
    /// observer says it has nothing to do and no source or timer is due.
    @Test func advancingFinishesTheCurrentTurnOnlyWhenAnObserverHasWork() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var log: [String] = []
        var pending = false
        let endOfTurn = RunLoopObserver(activities: .beforeWaiting, hasWork: { pending }) { _ in
            log.append(pending ? "commit at \(loop.clock.now)" : "idle at \(loop.clock.now)")
            pending = false
        }
        loop.add(endOfTurn)
        loop.schedule(after: 0.5) { _ in log.append("timer") }
        pending = true
        loop.advance(by: 1)
        expectEqual(log, ["commit at 0.0", "timer", "idle at 0.5", "idle at 1.0"])
        log.removeAll()
        loop.advance(by: 1)
        expectEqual(log, ["idle at 2.0"], "nothing waited: no pass at the old time")
        log.removeAll()
        let unknowing = RunLoopObserver(activities: .exit) { _ in }
        loop.add(unknowing)
        loop.advance(by: 1)
        expectEqual(log, ["idle at 2.0", "idle at 3.0"], "an observer that cannot tell may have work")
    }

    /// An application's update cycle leaves the run loop with the cycle: a
    /// loop kept after a reset no longer calls it.
    @Test func aLoopKeptAfterAResetNoLongerRunsTheOldUpdateCycle() {
        UIApplication.shared.resetForTesting()
        let oldLoop = UIApplication.shared.runLoop
        UIApplication.shared.resetForTesting()
        let layer = CALayer()
        layer.opacity = 0.5  // opens the implicit transaction
        oldLoop.runUntilIdle()  // would call the freed cycle and crash
        #expect(TransactionState.current.hasImplicitTransaction, "only the current loop's cycle commits")
        UIApplication.shared.runLoop.runUntilIdle()
        #expect(!TransactionState.current.hasImplicitTransaction)
    }

    @Test func workCreatedBeforeWaitingIsDoneBeforeTheLoopIdles() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        var ran = 0
        let source = RunLoopSource { ran += 1 }
        loop.add(source)
        var signalled = false
        loop.add(RunLoopObserver(activities: .beforeWaiting) { _ in
            if !signalled { signalled = true; source.signal() }
        })
        loop.runUntilIdle()
        expectEqual(ran, 1)
    }

    @Test func runForRealTimeWakesForTimersAndSocketMessages() throws {
        UIApplication.shared.resetForTesting()
        let application = UIApplication.shared
        application.diagnostics.handler = nil
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.makeKeyAndVisible()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let sender = try application.inputPort.openSocket()
        var timerFired = false
        application.runLoop.schedule(after: 0.01) { _ in timerFired = true }
        try sender.send(.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 5, y: 5)])))
        try sender.send(.digitizer(DigitizerFrame(timestamp: 2, contacts: [DigitizerContact(identifier: 1, phase: .ended, x: 5, y: 5)])))
        application.runLoop.run(for: 0.05)
        #expect(timerFired)
        expectEqual(view.phases, ["began", "ended"])
    }

    @Test func runForRealTimeTellsObserversEntryOnceThenEachWaitThenExitOnce() {
        let loop = ApplicationRunLoop()
        var log: [ApplicationRunLoop.Activity] = []
        loop.add(RunLoopObserver(activities: [.entry, .beforeWaiting, .afterWaiting, .exit]) { log.append($0) })
        var fired = 0
        loop.schedule(after: 0.005) { _ in fired += 1 }
        loop.run(for: 0.02)
        expectEqual(fired, 1)
        expectEqual(log.first, .entry)
        expectEqual(log.last, .exit)
        expectEqual(log.filter { $0 == .entry }.count, 1)
        expectEqual(log.filter { $0 == .exit }.count, 1)
        // It slept at least once (for the timer), and every wake follows a wait.
        let waits = log.dropFirst().dropLast()
        #expect(waits.contains(.afterWaiting))
        for (earlier, later) in zip(waits, waits.dropFirst()) where later == .afterWaiting {
            expectEqual(earlier, .beforeWaiting)
        }
    }

    @Test func readingTheNextFireDateLeavesTheTimerListAlone() {
        let loop = ApplicationRunLoop()
        loop.useManualClock()
        let early = loop.schedule(after: 1) { _ in }
        loop.schedule(after: 2) { _ in }
        early.invalidate()
        expectEqual(loop.nextTimerFireDate, 2)
        expectEqual(loop.timerListCount, 2)
        expectEqual(loop.nextTimerFireDate, 2)
    }
}

/// The input port and the event queue, and what they do with bad input.
@MainActor
@Suite struct InputPathTests {
    @Test func eventsSentOverASocketTakeTheSamePathAsSynthesizedOnes() throws {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let application = UIApplication.shared
        let sender = try application.inputPort.openSocket()
        try sender.send(.digitizer(DigitizerFrame(timestamp: 3, contacts: [DigitizerContact(identifier: 4, phase: .began, x: 30, y: 40)])))
        application.runLoop.runUntilIdle()
        expectEqual(view.phases, ["began"])
        expectEqual(view.calls[0].touches.first?.location(in: view), CGPoint(x: 30, y: 40))
        expectEqual(view.calls[0].event?.timestamp, 3)
    }

    @Test func malformedPacketsAreReportedAndTheEventsAroundThemStillArrive() throws {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let application = UIApplication.shared
        let encoder = HIDPacketEncoder()
        var bytes = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 5, y: 5)])))
        bytes += [0xde, 0xad, 0xbe, 0xef, 0x00, 0x01]  // garbage
        var badVersion = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1.5, contacts: [])))
        badVersion[4] = 9
        bytes += badVersion
        var badPhase = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1.6, contacts: [DigitizerContact(identifier: 1, phase: .moved, x: 9, y: 9)])))
        badPhase[HIDWireFormat.headerSize + 12 + 4] = 77
        bytes += badPhase
        bytes += encoder.encode(.digitizer(DigitizerFrame(timestamp: 2, contacts: [DigitizerContact(identifier: 1, phase: .ended, x: 5, y: 5)])))
        let sender = try application.inputPort.openSocket()
        try sender.send(bytes)
        application.runLoop.runUntilIdle()
        expectEqual(view.phases, ["began", "ended"])
        expectEqual(application.diagnostics.entries.map(\.kind), [.malformedHIDPacket, .malformedHIDPacket, .malformedHIDPacket])
        #expect(application.diagnostics.entries[0].message.contains("skipped 6 bytes"))
    }

    @Test func aClosedSocketIsReportedAndTheLocalPathKeepsWorking() throws {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let application = UIApplication.shared
        let sender = try application.inputPort.openSocket()
        sender.close()
        application.runLoop.runUntilIdle()
        expectEqual(application.diagnostics.entries.map(\.kind), [.inputPort])
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 1, y: 1))
        expectEqual(view.phases, ["began", "ended"])
    }

    @Test func nonFiniteTouchPointsAreDroppedAndTheOtherFingersGoOn() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let application = UIApplication.shared
        let synthesizer = TouchSynthesizer(window: window)
        // A finger that lands at NaN is ignored, for its whole life.
        let bad = synthesizer.touchDown(at: CGPoint(x: CGFloat.nan, y: 10))
        #expect(view.calls.isEmpty)
        let good = synthesizer.touchDown(at: CGPoint(x: 20, y: 20))
        expectEqual(view.phases, ["began"])
        // A finger that moves to infinity keeps its last position.
        synthesizer.touchMove(good, to: CGPoint(x: CGFloat.infinity, y: 5))
        expectEqual(view.phases, ["began"])
        let touch = view.calls[0].touches.first!
        expectEqual(touch.location(in: view), CGPoint(x: 20, y: 20))
        synthesizer.touchMove(good, to: CGPoint(x: 30, y: 30))
        synthesizer.touchUp([bad, good])
        expectEqual(view.phases, ["began", "moved", "ended"])
        expectEqual(touch.location(in: view), CGPoint(x: 30, y: 30))
        #expect(application.diagnostics.entries.allSatisfy { $0.kind == .invalidTouch })
        expectEqual(application.diagnostics.entries.count, 2)  // the landing at NaN (once for the finger's life), the move to infinity
        // A hit test at NaN finds nothing rather than crashing.
        #expect(window.hitTest(CGPoint(x: CGFloat.nan, y: CGFloat.nan), with: nil) == nil)
    }

    @Test func unknownAndDuplicateFingersAreReported() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let application = UIApplication.shared
        let synthesizer = TouchSynthesizer(window: window)
        application.inputPort.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [
            DigitizerContact(identifier: 50, phase: .moved, x: 1, y: 1),
        ])))
        application.inputPort.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [
            DigitizerContact(identifier: 51, phase: .began, x: 1, y: 1),
        ])))
        application.inputPort.send(.digitizer(DigitizerFrame(timestamp: 0, contacts: [
            DigitizerContact(identifier: 51, phase: .began, x: 1, y: 1),
        ])))
        application.runLoop.runUntilIdle()
        expectEqual(view.phases, ["began"])
        expectEqual(application.diagnostics.entries.count, 2)
        _ = synthesizer
    }

    @Test func anEventEnqueuedDuringDeliveryWaitsForTheCurrentOne() {
        final class CancellingView: RecordingView {
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
                super.touchesBegan(touches, with: event)
                // Removing a sibling that tracks a touch queues its cancellation.
                sibling?.removeFromSuperview()
                calls.append(Call(phase: "after removal", touches: [], event: nil))
            }
            weak var sibling: UIView?
        }
        let window = makeWindow()
        let first = RecordingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let second = CancellingView(frame: CGRect(x: 100, y: 0, width: 50, height: 50))
        second.sibling = first
        window.addSubview(first)
        window.addSubview(second)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchDown(at: CGPoint(x: 110, y: 10))
        // FIFO: the cancellation is delivered after second's touchesBegan returned.
        expectEqual(second.phases, ["began", "after removal"])
        expectEqual(first.phases, ["began", "cancelled"])
    }
}

@MainActor
@Suite struct InputPortTests {
    @Test func packetsSplitAcrossReadsOfTwoSocketsDoNotMix() throws {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let application = UIApplication.shared
        let first = try application.inputPort.openSocket()
        let second = try application.inputPort.openSocket()
        let encoder = HIDPacketEncoder()
        let a = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 5, y: 5)])))
        let b = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 2, phase: .began, x: 50, y: 50)])))
        try first.send(Array(a[..<20]))
        try second.send(Array(b[..<7]))
        application.runLoop.runUntilIdle()
        #expect(view.calls.isEmpty)
        try second.send(Array(b[7...]))
        try first.send(Array(a[20...]))
        application.runLoop.runUntilIdle()
        expectEqual(view.calls.flatMap(\.touches).count, 2)
        #expect(application.diagnostics.entries.isEmpty)
    }
}
