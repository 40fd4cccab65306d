import TestExpectations
import Testing
@testable import UIKit

// UIRefreshControl on a scroll view: a pull past the trigger distance while
// dragging starts a refresh once, the inset holds the spinner after the
// finger lifts, and endRefreshing gives it back.

@MainActor
@Suite struct RefreshControlTests {
    @Test func aPullPastTheTriggerStartsARefreshOnceAndTheInsetFollows() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 568))
        let scrollView = UIScrollView(frame: window.bounds)
        scrollView.contentSize = CGSize(width: 320, height: 2000)
        window.addSubview(scrollView)
        let refresh = UIRefreshControl()
        scrollView.refreshControl = refresh
        #expect(refresh.superview === scrollView && refresh.frame.maxY == 0 && scrollView.alwaysBounceVertical)
        let log = CallLog()
        refresh.addAction(UIAction { _ in log.add("refresh at \(Int(scrollView.contentOffset.y))") }, for: .valueChanged)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 160, y: 100))
        var y: CGFloat = 100
        while y < 540 {
            y += 20
            synthesizer.advance(by: 1.0 / 60)
            synthesizer.touchMove(finger, to: CGPoint(x: 160, y: y))
        }
        #expect(log.entries.count == 1 && refresh.isRefreshing, "\(log.entries)")
        expectEqual(scrollView.contentInset.top, 0, "the inset waits for the finger to lift")
        synthesizer.touchUp(finger)
        expectEqual(scrollView.contentInset.top, ControlMetrics.refreshControlHeight)
        synthesizer.advance(by: 2)
        refresh.endRefreshing()
        #expect(!refresh.isRefreshing && scrollView.contentInset.top == 0 && log.entries.count == 1)
        refresh.beginRefreshing()
        #expect(refresh.isRefreshing && scrollView.contentInset.top == ControlMetrics.refreshControlHeight && log.entries.count == 1)
        refresh.endRefreshing()
        scrollView.refreshControl = nil
        #expect(refresh.superview == nil)
    }

    @Test func aShortPullStartsNothing() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 568))
        let scrollView = UIScrollView(frame: window.bounds)
        scrollView.contentSize = CGSize(width: 320, height: 2000)
        window.addSubview(scrollView)
        let refresh = UIRefreshControl()
        scrollView.refreshControl = refresh
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 160, y: 100))
        synthesizer.advance(by: 1.0 / 60)
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 130))
        synthesizer.advance(by: 1.0 / 60)
        synthesizer.touchMove(finger, to: CGPoint(x: 160, y: 150))
        synthesizer.touchUp(finger)
        #expect(!refresh.isRefreshing && scrollView.contentInset.top == 0)
    }
}
