import TestExpectations
import Testing
@testable import QuartzCore

@MainActor
final class LayoutAndDisplayLog: CALayerDelegate {
    var entries: [String] = []
    func display(_ layer: CALayer) { entries.append("display") }
    func layoutSublayers(of layer: CALayer) { entries.append("layout") }
}

@MainActor
@Suite struct CATransactionTests {
    /// The transaction stack is shared by every test: each starts from a
    /// clean one, in its own body (tests do not interleave on the main actor).

    @Test func anExplicitTransactionCommitsWhenItCloses() {
        TransactionState.current.reset()
        let layer = CALayer()
        var log: [String] = []
        CATransaction.begin()
        layer.opacity = 0.5
        CATransaction.setCompletionBlock { log.append("done") }
        expectEqual(TransactionState.current.commitCount, 0)
        CATransaction.commit()
        expectEqual(TransactionState.current.commitCount, 1)
        expectEqual(log, ["done"])
        #expect(!TransactionState.current.hasImplicitTransaction)
    }

    @Test func nestedTransactionsCommitWithTheOutermostAndRunCompletionsInnerFirst() {
        TransactionState.current.reset()
        var log: [String] = []
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("outer") }
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("inner") }
        CALayer().position = CGPoint(x: 1, y: 1)
        CATransaction.commit()
        #expect(log.isEmpty)
        expectEqual(TransactionState.current.commitCount, 0)
        CATransaction.commit()
        expectEqual(log, ["inner", "outer"])
        expectEqual(TransactionState.current.commitCount, 1)
    }

    @Test func aChangeOutsideAnyTransactionOpensTheImplicitOneWhichHoldsExplicitOnes() {
        TransactionState.current.reset()
        var log: [String] = []
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        #expect(TransactionState.current.hasImplicitTransaction)
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("explicit") }
        layer.opacity = 0.2
        CATransaction.commit()
        #expect(log.isEmpty)  // sent with the implicit transaction
        TransactionState.current.commitImplicitTransaction()
        expectEqual(log, ["explicit"])
        expectEqual(TransactionState.current.commitCount, 1)
    }

    @Test func flushCommitsNowOrWhenTheOutermostExplicitTransactionCloses() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        CATransaction.flush()
        expectEqual(TransactionState.current.commitCount, 1)
        #expect(!TransactionState.current.hasImplicitTransaction)

        layer.position = CGPoint(x: 5, y: 6)
        CATransaction.begin()
        CATransaction.flush()
        expectEqual(TransactionState.current.commitCount, 1)
        CATransaction.commit()
        expectEqual(TransactionState.current.commitCount, 2)
    }

    @Test func settingsBelongToTheInnermostTransactionThatSetsThem() {
        TransactionState.current.reset()
        #expect(!CATransaction.disableActions())
        expectEqual(CATransaction.animationDuration(), 0.25)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(1)
        CATransaction.setValue(7, forKey: "answer")
        CATransaction.begin()
        #expect(CATransaction.disableActions())  // inherited
        CATransaction.setDisableActions(false)
        CATransaction.setAnimationDuration(-1)  // refused
        #expect(!CATransaction.disableActions())
        expectEqual(CATransaction.animationDuration(), 1)
        #expect(CATransaction.value(forKey: "answer") as? Int == 7)
        CATransaction.commit()
        #expect(CATransaction.disableActions())
        CATransaction.commit()
        #expect(!CATransaction.disableActions())
        #expect(CATransaction.value(forKey: "answer") == nil)
    }

    @Test func aCommitWithoutABeginIsIgnored() {
        TransactionState.current.reset()
        CATransaction.commit()
        expectEqual(TransactionState.current.commitCount, 0)
    }

    @Test func aCommitLaysOutThenDisplays() {
        TransactionState.current.reset()
        let log = LayoutAndDisplayLog()
        let root = CALayer(), child = CALayer()
        root.addSublayer(child)
        child.delegate = log
        CATransaction.begin()
        child.setNeedsDisplay()
        child.setNeedsLayout()
        CATransaction.commit()
        #expect(log.entries.isEmpty)  // adding the sublayer opened the implicit transaction first
        CATransaction.flush()
        expectEqual(log.entries, ["layout", "display"])
    }

    @Test func aLayerThatGoesAwayWhileMarkedIsForgotten() {
        TransactionState.current.reset()
        do {
            let layer = CALayer()
            layer.setNeedsLayout()
            layer.setNeedsDisplay()
        }
        CATransaction.flush()  // would touch a freed layer otherwise
        expectEqual(TransactionState.current.commitCount, 1)
    }

    /// Layers that go away leave their places empty; the layers still
    /// marked, before and after them in the lists, are laid out and
    /// displayed once each, in the order they were marked.
    @Test func layersThatGoAwayLeaveTheOthersMarkedInOrder() {
        TransactionState.current.reset()
        final class Logged: CALayer {
            var label = ""
            var log: (String) -> Void = { _ in }
            override func layoutSublayers() { log("layout \(label)") }
            override func display() { log("display \(label)") }  // without super, as subclasses may
        }
        var log: [String] = []
        var layers: [Logged?] = (0..<6).map { index in
            let layer = Logged()
            layer.label = "\(index)"
            layer.log = { log.append($0) }
            return layer
        }
        for layer in layers { layer?.setNeedsLayout(); layer?.setNeedsDisplay() }
        for index in [5, 0, 2, 4] { layers[index] = nil }  // the last, the first, then two in between
        CATransaction.flush()
        expectEqual(log, ["layout 1", "layout 3", "display 1", "display 3"])
        log = []
        layers = []
        #expect(!TransactionState.current.hasImplicitTransaction)
    }

    /// A layer marked for layout before it had a superlayer (a view made,
    /// resized, then added) is laid out by its new ancestor's layoutIfNeeded,
    /// and so is one whose sublayer was marked.
    @Test func layoutIfNeededReachesALayerMarkedBeforeItWasAdded() {
        TransactionState.current.reset()
        let log = LayoutAndDisplayLog()
        let root = CALayer(), child = CALayer(), grandchild = CALayer()
        child.delegate = log
        child.setNeedsLayout()
        root.addSublayer(child)
        root.layoutIfNeeded()
        expectEqual(log.entries, ["layout"])
        let other = CALayer()
        grandchild.delegate = log
        other.addSublayer(grandchild)
        grandchild.setNeedsLayout()
        root.replaceSublayer(child, with: other)
        root.layoutIfNeeded()
        expectEqual(log.entries, ["layout", "layout"])
        TransactionState.current.reset()
    }

    /// Resetting unmarks every listed layer, so that the next mark lists it again.
    @Test func resetUnmarksTheListedLayers() {
        TransactionState.current.reset()
        let log = LayoutAndDisplayLog()
        let layer = CALayer()
        layer.delegate = log
        layer.setNeedsLayout()
        layer.setNeedsDisplay()
        TransactionState.current.reset()
        layer.setNeedsLayout()
        layer.setNeedsDisplay()
        CATransaction.flush()
        expectEqual(log.entries, ["layout", "display"])
    }
}
