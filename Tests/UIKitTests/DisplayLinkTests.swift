import TestExpectations
import Testing
@testable import UIKit

@MainActor
final class Animator {
    var frames: [(timestamp: TimeInterval, target: TimeInterval, duration: TimeInterval)] = []
    func step(_ link: CADisplayLink) {
        frames.append((link.timestamp, link.targetTimestamp, link.duration))
    }
}

@MainActor
@Suite struct DisplayLinkTests {
    private func start() -> ManualClock {
        _ = makeWindow()
        return UIApplication.shared.runLoop.useManualClock()
    }

    private func near(_ a: TimeInterval, _ b: TimeInterval) -> Bool { abs(a - b) < 1e-9 }

    @Test func aLinkFiresAtEveryRefreshWithItsTimes() {
        let clock = start()
        let animator = Animator()
        let link = CADisplayLink(target: animator, selector: Animator.step)
        link.add(to: .main, forMode: .common)
        UIApplication.shared.runLoop.advance(by: 0.001)
        #expect(animator.frames.isEmpty)  // the first refresh is at 1/60 s
        UIApplication.shared.runLoop.advance(by: 3.0 / 60)
        expectEqual(animator.frames.count, 3)
        for (index, frame) in animator.frames.enumerated() {
            #expect(near(frame.timestamp, Double(index + 1) / 60))
            #expect(near(frame.target, Double(index + 2) / 60))
            #expect(near(frame.duration, 1.0 / 60))
        }
        #expect(clock.now > 3.0 / 60)
        link.invalidate()
    }

    @Test func aLowerPreferredRateFiresOnEveryOtherRefresh() {
        _ = start()
        var times: [TimeInterval] = []
        var targets: [TimeInterval] = []
        let link = CADisplayLink { link in
            times.append(link.timestamp)
            targets.append(link.targetTimestamp)
        }
        link.preferredFramesPerSecond = 30
        link.add(to: .main, forMode: .common)
        UIApplication.shared.runLoop.advance(by: 6.0 / 60 + 0.001)
        let expectedTimes: [TimeInterval] = [1.0 / 60, 3.0 / 60, 5.0 / 60]
        let expectedTargets: [TimeInterval] = [3.0 / 60, 5.0 / 60, 7.0 / 60]
        expectEqual(times.count, 3)
        #expect(zip(times, expectedTimes).allSatisfy { near($0, $1) })
        #expect(zip(targets, expectedTargets).allSatisfy { near($0, $1) })
        link.invalidate()
    }

    @Test func aFrameRateRangeAndA120HzScreen() {
        _ = start()
        UIScreen.main.maximumFramesPerSecond = 120
        var durations: [TimeInterval] = []
        var times: [TimeInterval] = []
        let fast = CADisplayLink { link in durations.append(link.duration); times.append(link.timestamp) }
        fast.add(to: .main, forMode: .common)
        var slowCount = 0
        let slow = CADisplayLink { _ in slowCount += 1 }
        slow.preferredFrameRateRange = CAFrameRateRange(minimum: 30, maximum: 60, preferred: 40)
        slow.add(to: .main, forMode: .default)
        UIApplication.shared.runLoop.advance(by: 12.0 / 120 + 0.0001)
        expectEqual(times.count, 12)
        #expect(durations.allSatisfy { near($0, 1.0 / 120) })
        expectEqual(slowCount, 4)  // 120 / 40: every third refresh
        UIScreen.main.maximumFramesPerSecond = 90  // not a display rate: refused
        expectEqual(UIScreen.main.maximumFramesPerSecond, 120)
        fast.invalidate()
        slow.invalidate()
    }

    @Test func pausedLinksSkipFramesAndInvalidatedOnesStopAndLetGoOfTheirTarget() {
        _ = start()
        weak var weakAnimator: Animator?
        var link: CADisplayLink!
        do {
            let animator = Animator()
            weakAnimator = animator
            link = CADisplayLink(target: animator, selector: Animator.step)
        }
        #expect(weakAnimator != nil)  // the link retains its target, as Core Animation's does
        link.add(to: .main, forMode: .common)
        link.isPaused = true
        UIApplication.shared.runLoop.advance(by: 2.0 / 60 + 0.001)
        expectEqual(weakAnimator?.frames.isEmpty, true)
        link.isPaused = false
        UIApplication.shared.runLoop.advance(by: 2.0 / 60)
        expectEqual(weakAnimator?.frames.count, 2)
        link.invalidate()
        #expect(weakAnimator == nil)
        #expect(link.isInvalidated)
        link.add(to: .main, forMode: .common)  // an invalidated link stays off
        UIApplication.shared.runLoop.advance(by: 1)
        // With no link left the display clock stops: nothing is scheduled.
        #expect(UIApplication.shared.runLoop.nextTimerFireDate == nil)
    }

    @Test func changesMadeInALinkCallbackAreCommittedInThatFrame() {
        let window = makeWindow()
        UIApplication.shared.runLoop.useManualClock()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(view)
        UIApplication.shared.runLoop.runUntilIdle()
        let commits = TransactionState.current.commitCount
        var step = 0
        let link = CADisplayLink { _ in
            step += 1
            view.center.x += 1
        }
        link.add(to: .main, forMode: .common)
        UIApplication.shared.runLoop.advance(by: 3.0 / 60 + 0.001)
        expectEqual(step, 3)
        expectEqual(TransactionState.current.commitCount, commits + 3)
        link.invalidate()
    }
}
