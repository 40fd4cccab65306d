import TestExpectations
import Testing
@testable import UIKit

/// A view that logs its layout and drawing.
@MainActor
final class CycleView: UIView {
    var name = ""
    var log: CallLog?
    var layout: ((CycleView) -> Void)?
    var fittingSize = CGSize(width: 42, height: 17)

    override func layoutSubviews() {
        log?.add("\(name) layout")
        layout?(self)
    }

    override func draw(_ rect: CGRect) {
        log?.add("\(name) draw \(Int(rect.width))x\(Int(rect.height))")
    }

    override func sizeThatFits(_ size: CGSize) -> CGSize { fittingSize }
}

@MainActor
final class CycleController: UIViewController {
    var log: CallLog?
    override func viewWillLayoutSubviews() { log?.add("controller will layout") }
    override func viewDidLayoutSubviews() { log?.add("controller did layout") }
}

@MainActor
@Suite struct UpdateCycleTests {
    /// A clean application with a window holding one logging view.
    private func makeCycle() -> (UIWindow, CycleView, CallLog) {
        let window = makeWindow()
        UIApplication.shared.runLoop.useManualClock()
        let log = CallLog()
        let view = CycleView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        view.name = "view"
        view.log = log
        window.addSubview(view)
        UIApplication.shared.runLoop.runUntilIdle()
        log.clear()
        return (window, view, log)
    }

    @Test func layoutThenDisplayThenCommitOnceAtTheEndOfTheTurn() {
        let (_, view, log) = makeCycle()
        let commits = TransactionState.current.commitCount
        view.setNeedsLayout()
        view.setNeedsLayout()
        view.setNeedsDisplay()
        view.setNeedsDisplay()
        CATransaction.setCompletionBlock { log.add("committed") }
        #expect(log.entries.isEmpty)  // nothing happens before the turn ends
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout", "view draw 100x50", "committed"])
        expectEqual(TransactionState.current.commitCount, commits + 1)
    }

    @Test func aTurnThatChangedNothingCommitsNothing() {
        let (_, _, log) = makeCycle()
        let commits = TransactionState.current.commitCount
        UIApplication.shared.runLoop.runUntilIdle()
        UIApplication.shared.runLoop.advance(by: 1)
        #expect(log.entries.isEmpty)
        expectEqual(TransactionState.current.commitCount, commits)
    }

    @Test func changesMadeByATimerAreCommittedInThatTurn() {
        let (_, view, log) = makeCycle()
        let loop = UIApplication.shared.runLoop
        loop.schedule(after: 0.5) { _ in
            log.add("timer")
            view.setNeedsDisplay()
        }
        loop.advance(by: 0.4)
        #expect(log.entries.isEmpty)
        loop.advance(by: 0.2)
        expectEqual(log.entries, ["timer", "view draw 100x50"])
    }

    @Test func layoutGoesFromTheWindowDownInOnePass() {
        let (window, parent, log) = makeCycle()
        let child = CycleView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        child.name = "child"
        child.log = log
        parent.addSubview(child)
        parent.layout = { view in view.subviews[0].frame = CGRect(x: 0, y: 0, width: 30, height: 30) }
        UIApplication.shared.runLoop.runUntilIdle()
        log.clear()
        // Marked bottom up; laid out top down, and the child, resized by its
        // parent's layout, is laid out again in the same pass.
        child.setNeedsLayout()
        parent.setNeedsLayout()
        parent.layout = { view in view.subviews[0].frame = CGRect(x: 0, y: 0, width: 40, height: 40) }
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout", "child layout"])
        expectEqual(child.frame.size, CGSize(width: 40, height: 40))
        _ = window
    }

    @Test func aNewSizeMarksTheViewForLayout() {
        let (_, view, log) = makeCycle()
        view.frame.origin = CGPoint(x: 5, y: 5)
        UIApplication.shared.runLoop.runUntilIdle()
        #expect(log.entries.isEmpty)  // moving is not resizing
        view.frame.size = CGSize(width: 80, height: 80)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout"])
    }

    // UIKit lays a view out again when its subviews change: a subview added
    // or removed, or resized (Apple's CALayer.setNeedsLayout(): "called
    // automatically when the layer's bounds change or when sublayers are
    // added or removed"; resizing a subview lays out its superview).
    @Test func addingOrRemovingASubviewMarksTheParentForLayout() {
        let (_, parent, log) = makeCycle()
        parent.layoutIfNeeded()
        let child = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        parent.addSubview(child)
        parent.layoutIfNeeded()
        expectEqual(log.entries, ["view layout"])
        log.clear()
        child.removeFromSuperview()
        parent.layoutIfNeeded()
        expectEqual(log.entries, ["view layout"])
        log.clear()
        let other = UIView(), another = UIView()
        parent.addSubview(other)
        parent.insertSubview(another, belowSubview: other)
        parent.layoutIfNeeded()
        parent.bringSubviewToFront(another)
        parent.layoutIfNeeded()
        expectEqual(log.entries, ["view layout", "view layout"])
    }

    @Test func resizingASubviewMarksItsSuperviewForLayout() {
        let (_, parent, log) = makeCycle()
        let child = CycleView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        child.name = "child"
        child.log = log
        parent.addSubview(child)
        UIApplication.shared.runLoop.runUntilIdle()
        log.clear()
        child.bounds.size = CGSize(width: 20, height: 20)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout", "child layout"])
        log.clear()
        child.frame.size = CGSize(width: 30, height: 30)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout", "child layout"])
        log.clear()
        child.frame.origin = CGPoint(x: 4, y: 4)  // moving is not resizing
        child.bounds.origin = CGPoint(x: 2, y: 2)
        UIApplication.shared.runLoop.runUntilIdle()
        #expect(log.entries.isEmpty)
    }

    @Test func subviewsAParentPlacesOrAddsInItsOwnLayoutDoNotLayItOutAgain() {
        let (_, parent, log) = makeCycle()
        let child = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        parent.layout = { view in
            view.addSubview(child)
            child.frame.size = CGSize(width: view.bounds.width / 2, height: 10)
        }
        parent.setNeedsLayout()
        UIApplication.shared.runLoop.runUntilIdle()
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout"])
        expectEqual(child.frame.width, 50)
    }

    @Test func layoutIfNeededLaysOutAtOnceAndOnlyWhenMarked() {
        let (_, view, log) = makeCycle()
        view.layoutIfNeeded()
        #expect(log.entries.isEmpty)
        view.setNeedsLayout()
        view.layoutIfNeeded()
        expectEqual(log.entries, ["view layout"])
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout"])  // already done
    }

    @Test func aControllerHearsAboutItsViewsLayout() {
        let window = makeWindow()
        let log = CallLog()
        let controller = CycleController()
        controller.log = log
        let root = CycleView(frame: .zero)
        root.name = "root"
        root.log = log
        controller.view = root
        window.rootViewController = controller
        UIApplication.shared.runLoop.runUntilIdle()
        log.clear()
        root.setNeedsLayout()
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["controller will layout", "root layout", "controller did layout"])
    }

    @Test func redrawContentModeDrawsAgainAtEveryNewSize() {
        let (_, view, log) = makeCycle()
        view.frame.size = CGSize(width: 60, height: 60)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout"])  // scaleToFill: the old drawing is stretched
        log.clear()
        view.contentMode = .redraw
        view.frame.size = CGSize(width: 70, height: 20)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view layout", "view draw 70x20"])
    }

    @Test func setNeedsDisplayInARectDrawsOnceWithTheBounds() {
        let (_, view, log) = makeCycle()
        view.setNeedsDisplay(CGRect(x: 1, y: 1, width: 5, height: 5))
        view.setNeedsDisplay(CGRect(x: 20, y: 20, width: 5, height: 5))
        view.setNeedsDisplay(CGRect(x: CGFloat.nan, y: 0, width: 5, height: 5))  // ignored
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.entries, ["view draw 100x50"])
    }

    @Test func sizeToFitTakesTheSizeThatFitsAndKeepsTheOrigin() {
        let (_, view, _) = makeCycle()
        view.frame = CGRect(x: 7, y: 9, width: 100, height: 50)
        view.sizeToFit()
        expectEqual(view.frame, CGRect(x: 7, y: 9, width: 42, height: 17))
        view.fittingSize = CGSize(width: CGFloat.infinity, height: 3)
        view.sizeToFit()
        expectEqual(view.frame, CGRect(x: 7, y: 9, width: 42, height: 17))  // not finite: unchanged
        expectEqual(UIView(frame: CGRect(x: 0, y: 0, width: 12, height: 34)).sizeThatFits(.zero), CGSize(width: 12, height: 34))
    }

    @Test func aPlainLayersDelegateDisplaysItAndABoundsChangeCanMarkIt() {
        final class Recorder: CALayerDelegate {
            var log: [String] = []
            func display(_ layer: CALayer) { log.append("display \(Int(layer.bounds.width))") }
            func layoutSublayers(of layer: CALayer) { log.append("layout") }
        }
        _ = makeWindow()
        let recorder = Recorder()
        let layer = CALayer()
        layer.delegate = recorder
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(recorder.log, ["layout"])
        layer.needsDisplayOnBoundsChange = true
        layer.bounds.size.width = 20
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(recorder.log, ["layout", "layout", "display 20"])
    }

    @Test func aViewMarkedWhileItIsDrawnIsDrawnAgainInTheSameCommitButNotForever() {
        final class Restless: UIView {
            var draws = 0
            override func draw(_ rect: CGRect) {
                draws += 1
                setNeedsDisplay()
            }
        }
        let window = makeWindow()
        let view = Restless(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(view)
        view.setNeedsDisplay()
        UIApplication.shared.runLoop.runUntilIdle()
        // Bounded per commit, and the loop still goes idle.
        expectEqual(view.draws, TransactionState.maximumLayoutAndDisplayRounds)
    }
}
