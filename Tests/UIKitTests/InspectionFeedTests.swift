import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// The inspector's feed (both inspectors' one home): the view tree is
/// described again after a change it shows, such as a layout pass, but
/// at most once per frame of the screen.
@MainActor
@Suite struct InspectionFeedTests {
    /// A window with one view, a feed of it started, and the trees it sent.
    @MainActor private final class Watched {
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        var trees: [[String: Any]] = []
        var feed: InspectionFeed!

        /// `describingPause` stretches each description of the tree by that
        /// many microseconds of the machine's time, as a loaded machine does.
        init(describingPause: useconds_t = 0) {
            window.addSubview(view)
            window.makeKeyAndVisible()
            feed = InspectionFeed(windows: { [window] in
                usleep(describingPause)
                return [window]
            }) { [unowned self] text in
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      object["type"] as? String == "tree" else { return }
                trees.append(object)
            }
        }

        /// The frame the last tree gave the view.
        var lastFrameOfView: [Double]? {
            guard let views = trees.last?["views"] as? [[String: Any]], views.count == 2 else { return nil }
            return (views[1]["frame"] as? [NSNumber])?.map(\.doubleValue)
        }
    }

    @Test func theTreeIsSentAgainAfterALayoutPassAtMostOncePerFrame() throws {
        UIApplication.shared.resetForTesting()
        let loop = UIApplication.shared.runLoop
        _ = loop.useManualClock()
        // Each description takes 5 ms of the machine's time, over a fifth of
        // a frame; on the manual clock it takes none, so the trees still
        // come once per frame (timed on the machine's clock, they came every
        // 25 ms, and this test failed on a loaded machine).
        let watched = Watched(describingPause: 5_000)
        watched.feed.start()
        defer { watched.feed.stop() }
        loop.runUntilIdle()
        expectEqual(watched.trees.count, 1, "the tree is described once started")
        expectEqual(watched.lastFrameOfView, [10, 20, 30, 40])

        // A layout pass in the same frame: the new tree waits for the next frame.
        watched.view.frame = CGRect(x: 50, y: 60, width: 70, height: 80)
        watched.view.setNeedsLayout()
        loop.runUntilIdle()
        expectEqual(watched.trees.count, 1)
        loop.advance(by: 1.0 / 60)
        expectEqual(watched.trees.count, 2)
        expectEqual(watched.lastFrameOfView, [50, 60, 70, 80])

        // Three layout passes within one frame make one tree, at its end.
        for step in 1...3 {
            watched.view.frame.origin.x = CGFloat(50 + step)
            watched.view.setNeedsLayout()
            loop.advance(by: 1.0 / 240)
        }
        expectEqual(watched.trees.count, 2)
        loop.advance(by: 1.0 / 60)
        expectEqual(watched.trees.count, 3)
        expectEqual(watched.lastFrameOfView, [53, 60, 70, 80])

        // Nothing changes: no tree.
        loop.advance(by: 1.0 / 10)
        expectEqual(watched.trees.count, 3)
    }

    @Test func stoppingPutsTheApplicationsOwnTraceHandlerBack() {
        UIApplication.shared.resetForTesting()
        var own = 0
        UIApplication.shared.traceHandler = { _ in own += 1 }
        let watched = Watched()
        watched.feed.start()
        #expect(UIApplication.shared.didCommit != nil)
        watched.feed.stop()
        #expect(UIApplication.shared.didCommit == nil)
        UIApplication.shared.traceHandler?(TraceRecord(timestamp: 0, eventID: nil, touchIDs: [], step: .commit))
        expectEqual(own, 1)
        UIApplication.shared.traceHandler = nil
    }
}
