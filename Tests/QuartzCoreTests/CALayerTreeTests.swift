import TestExpectations
import Testing
import QuartzCore

/// A layer with a name, so that tree shapes read well in failures.
@MainActor
final class NamedLayer: CALayer {
    var name = ""

    required init() { super.init() }

    convenience init(_ name: String) {
        self.init()
        self.name = name
    }
}

@MainActor
func names(_ layers: [CALayer]?) -> [String] {
    (layers ?? []).map { ($0 as? NamedLayer)?.name ?? "?" }
}

@MainActor
@Suite struct CALayerTreeTests {
    let parent = NamedLayer("parent")
    let a = NamedLayer("a"), b = NamedLayer("b"), c = NamedLayer("c"), d = NamedLayer("d")

    func addABC() {
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.addSublayer(c)
    }

    @Test func addSublayerAppendsBackToFront() {
        #expect(parent.sublayers == nil)
        addABC()
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(a.superlayer === parent && b.superlayer === parent && c.superlayer === parent)
    }

    @Test func insertAtAnIndex() {
        addABC()
        parent.insertSublayer(d, at: 1)
        expectEqual(names(parent.sublayers), ["a", "d", "b", "c"])
        #expect(d.superlayer === parent)
    }

    @Test func insertAtAnIndexPastTheEndAppends() {
        addABC()
        parent.insertSublayer(d, at: 100)
        expectEqual(names(parent.sublayers), ["a", "b", "c", "d"])
        parent.insertSublayer(d, at: 0)
        expectEqual(names(parent.sublayers), ["d", "a", "b", "c"])
    }

    @Test func insertAboveAndBelow() {
        addABC()
        parent.insertSublayer(d, above: a)
        expectEqual(names(parent.sublayers), ["a", "d", "b", "c"])
        let e = NamedLayer("e")
        parent.insertSublayer(e, below: c)
        expectEqual(names(parent.sublayers), ["a", "d", "b", "e", "c"])
        let f = NamedLayer("f")
        parent.insertSublayer(f, below: a)
        expectEqual(names(parent.sublayers), ["f", "a", "d", "b", "e", "c"])
        let g = NamedLayer("g")
        parent.insertSublayer(g, above: c)
        expectEqual(names(parent.sublayers), ["f", "a", "d", "b", "e", "c", "g"])
        #expect(e.superlayer === parent && f.superlayer === parent && g.superlayer === parent)
    }

    @Test func insertAboveOrBelowAnExistingSiblingMovesIt() {
        addABC()
        parent.insertSublayer(a, above: c)
        expectEqual(names(parent.sublayers), ["b", "c", "a"])
        parent.insertSublayer(a, below: b)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        parent.insertSublayer(c, below: b)
        expectEqual(names(parent.sublayers), ["a", "c", "b"])
        parent.insertSublayer(a, above: b)
        expectEqual(names(parent.sublayers), ["c", "b", "a"])
        #expect(a.superlayer === parent)
    }

    @Test func insertRelativeToItselfChangesNothing() {
        addABC()
        parent.insertSublayer(b, above: b)
        parent.insertSublayer(b, below: b)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(b.superlayer === parent)
    }

    @Test func insertRelativeToANilOrForeignSibling() {
        addABC()
        // Above nil (or a layer that is not a sublayer) puts the layer in front,
        // below nil puts it at the back.
        parent.insertSublayer(d, above: nil)
        expectEqual(names(parent.sublayers), ["a", "b", "c", "d"])
        let stranger = NamedLayer("stranger")
        parent.insertSublayer(d, below: stranger)
        expectEqual(names(parent.sublayers), ["d", "a", "b", "c"])
        parent.insertSublayer(d, above: stranger)
        expectEqual(names(parent.sublayers), ["a", "b", "c", "d"])
        parent.insertSublayer(d, below: nil)
        expectEqual(names(parent.sublayers), ["d", "a", "b", "c"])
    }

    @Test func replaceSublayer() {
        addABC()
        parent.replaceSublayer(b, with: d)
        expectEqual(names(parent.sublayers), ["a", "d", "c"])
        #expect(b.superlayer == nil)
        #expect(d.superlayer === parent)
    }

    @Test func replaceSublayerWithALayerFromAnotherTree() {
        addABC()
        let other = NamedLayer("other")
        other.addSublayer(d)
        parent.replaceSublayer(c, with: d)
        expectEqual(names(parent.sublayers), ["a", "b", "d"])
        #expect(other.sublayers == nil)
        #expect(c.superlayer == nil)
    }

    @Test func replaceSublayerWithAnEarlierSiblingPutsItWhereTheOldOneWas() {
        addABC()
        parent.addSublayer(d)  // a b c d
        parent.replaceSublayer(c, with: a)
        // a leaves slot 0 and takes c's place between b and d.
        expectEqual(names(parent.sublayers), ["b", "a", "d"])
        #expect(c.superlayer == nil)
        #expect(a.superlayer === parent)
    }

    @Test func replaceSublayerWithALaterSibling() {
        addABC()
        parent.addSublayer(d)  // a b c d
        parent.replaceSublayer(b, with: d)
        expectEqual(names(parent.sublayers), ["a", "d", "c"])
        #expect(b.superlayer == nil)
    }

    @Test func replaceSublayerWithItselfChangesNothing() {
        addABC()
        parent.replaceSublayer(b, with: b)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(b.superlayer === parent)
    }

    @Test func replaceALayerThatIsNotASublayerChangesNothing() {
        addABC()
        parent.replaceSublayer(d, with: NamedLayer("e"))
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
    }

    @Test func replaceSublayerWithAnAncestorIsRefusedAndChangesNothing() {
        let root = NamedLayer("root")
        root.addSublayer(parent)
        addABC()
        parent.replaceSublayer(b, with: root)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(b.superlayer === parent)
        #expect(parent.superlayer === root)
        #expect(root.superlayer == nil)
        parent.replaceSublayer(b, with: parent)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(parent.superlayer === root)
    }

    @Test func removeFromSuperlayer() {
        addABC()
        b.removeFromSuperlayer()
        expectEqual(names(parent.sublayers), ["a", "c"])
        #expect(b.superlayer == nil)
        b.removeFromSuperlayer()  // harmless when already removed
        a.removeFromSuperlayer()
        c.removeFromSuperlayer()
        #expect(parent.sublayers == nil)
    }

    @Test func addingALayerThatHasASuperlayerMovesIt() {
        let other = NamedLayer("other")
        other.addSublayer(a)
        other.addSublayer(b)
        parent.addSublayer(a)
        expectEqual(names(other.sublayers), ["b"])
        expectEqual(names(parent.sublayers), ["a"])
        #expect(a.superlayer === parent)
    }

    @Test func reAddingToTheSameSuperlayerMovesToTheFront() {
        addABC()
        parent.addSublayer(a)
        expectEqual(names(parent.sublayers), ["b", "c", "a"])
        parent.insertSublayer(a, at: 1)
        expectEqual(names(parent.sublayers), ["b", "a", "c"])
    }

    @Test func addingALayerIntoItsOwnSubtreeIsRefused() {
        let root = NamedLayer("root")
        root.addSublayer(parent)
        addABC()
        a.addSublayer(d)

        d.addSublayer(root)
        a.addSublayer(parent)
        parent.addSublayer(parent)
        d.insertSublayer(root, at: 0)
        d.insertSublayer(a, above: nil)
        d.insertSublayer(parent, below: nil)
        a.insertSublayer(root, above: d)
        a.insertSublayer(parent, below: d)
        d.sublayers = [root]

        #expect(root.superlayer == nil)
        expectEqual(names(root.sublayers), ["parent"])
        #expect(parent.superlayer === root)
        expectEqual(names(parent.sublayers), ["a", "b", "c"])
        #expect(a.superlayer === parent)
        expectEqual(names(a.sublayers), ["d"])
        #expect(d.superlayer === a)
        #expect(d.sublayers == nil)
    }

    @Test func isInSubtree() {
        addABC()
        a.addSublayer(d)
        #expect(d.isInSubtree(of: d))
        #expect(d.isInSubtree(of: a))
        #expect(d.isInSubtree(of: parent))
        #expect(!d.isInSubtree(of: b))
        #expect(!parent.isInSubtree(of: d))
    }

    @Test func settingSublayersReplacesTheWholeList() {
        addABC()
        let other = NamedLayer("other")
        other.addSublayer(d)
        parent.sublayers = [c, d]
        expectEqual(names(parent.sublayers), ["c", "d"])
        #expect(a.superlayer == nil && b.superlayer == nil)
        #expect(c.superlayer === parent && d.superlayer === parent)
        #expect(other.sublayers == nil)
        parent.sublayers = nil
        #expect(parent.sublayers == nil)
        #expect(c.superlayer == nil && d.superlayer == nil)
    }

    @Test func sublayersFrontToBackFollowsZPositionThenOrder() {
        addABC()
        expectEqual(names(parent.sublayersFrontToBack()), ["c", "b", "a"])
        a.zPosition = 1
        expectEqual(names(parent.sublayersFrontToBack()), ["a", "c", "b"])
        c.zPosition = 1
        expectEqual(names(parent.sublayersFrontToBack()), ["c", "a", "b"])
        b.zPosition = -1
        c.zPosition = 0
        expectEqual(names(parent.sublayersFrontToBack()), ["a", "c", "b"])
    }

    @Test func superlayerIsWeak() {
        weak var weakParent: CALayer?
        let child = CALayer()
        do {
            let temporary = CALayer()
            temporary.addSublayer(child)
            weakParent = temporary
            #expect(child.superlayer === temporary)
        }
        #expect(weakParent == nil)
        #expect(child.superlayer == nil)
    }
}
