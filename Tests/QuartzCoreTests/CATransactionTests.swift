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
        #expect(TransactionState.current.commitCount == 0)
        CATransaction.commit()
        #expect(TransactionState.current.commitCount == 1)
        #expect(log == ["done"])
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
        #expect(TransactionState.current.commitCount == 0)
        CATransaction.commit()
        #expect(log == ["inner", "outer"])
        #expect(TransactionState.current.commitCount == 1)
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
        #expect(log == ["explicit"])
        #expect(TransactionState.current.commitCount == 1)
    }

    @Test func flushCommitsNowOrWhenTheOutermostExplicitTransactionCloses() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        CATransaction.flush()
        #expect(TransactionState.current.commitCount == 1)
        #expect(!TransactionState.current.hasImplicitTransaction)

        layer.position = CGPoint(x: 5, y: 6)
        CATransaction.begin()
        CATransaction.flush()
        #expect(TransactionState.current.commitCount == 1)
        CATransaction.commit()
        #expect(TransactionState.current.commitCount == 2)
    }

    @Test func settingsBelongToTheInnermostTransactionThatSetsThem() {
        TransactionState.current.reset()
        #expect(!CATransaction.disableActions())
        #expect(CATransaction.animationDuration() == 0.25)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(1)
        CATransaction.setValue(7, forKey: "answer")
        CATransaction.begin()
        #expect(CATransaction.disableActions())  // inherited
        CATransaction.setDisableActions(false)
        CATransaction.setAnimationDuration(-1)  // refused
        #expect(!CATransaction.disableActions())
        #expect(CATransaction.animationDuration() == 1)
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
        #expect(TransactionState.current.commitCount == 0)
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
        #expect(log.entries == ["layout", "display"])
    }

    @Test func aLayerThatGoesAwayWhileMarkedIsForgotten() {
        TransactionState.current.reset()
        do {
            let layer = CALayer()
            layer.setNeedsLayout()
            layer.setNeedsDisplay()
        }
        CATransaction.flush()  // would touch a freed layer otherwise
        #expect(TransactionState.current.commitCount == 1)
    }
}
