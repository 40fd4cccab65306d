import TestExpectations
import Testing
import QuartzCore

@MainActor
func hitName(_ layer: CALayer?) -> String {
    guard let layer else { return "nil" }
    return (layer as? NamedLayer)?.name ?? "?"
}

@MainActor
func namedLayer(_ name: String, frame: CGRect) -> NamedLayer {
    let layer = NamedLayer(name)
    layer.frame = frame
    return layer
}

/// root (0,0,400,400), whose space is root space (position = anchor point),
/// holding `back` (0,0,100,100) and, in front of it, `front` (50,50,100,100),
/// which holds `inner` at (80,80,50,50) of its own space, i.e. at
/// (130,130,50,50) in root space, sticking out of `front`.
@MainActor
struct HitTree {
    let root = namedLayer("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400))
    let back = namedLayer("back", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
    let front = namedLayer("front", frame: CGRect(x: 50, y: 50, width: 100, height: 100))
    let inner = namedLayer("inner", frame: CGRect(x: 80, y: 80, width: 50, height: 50))

    init() {
        root.addSublayer(back)
        root.addSublayer(front)
        front.addSublayer(inner)
    }

    func hit(_ x: CGFloat, _ y: CGFloat) -> String { hitName(root.hitTest(CGPoint(x: x, y: y))) }
}

@MainActor
@Suite struct CALayerHitTestTests {
    let tree = HitTree()

    @Test func frontMostLayerContainingThePointWins() {
        expectEqual(tree.hit(10, 10), "back")
        expectEqual(tree.hit(60, 60), "front")     // both contain it; front is later
        expectEqual(tree.hit(120, 120), "front")
        expectEqual(tree.hit(140, 140), "inner")   // front-local (90,90), inner-local (10,10)
        expectEqual(tree.hit(300, 300), "root")
    }

    @Test func minimumEdgesAreInsideMaximumEdgesAreNot() {
        expectEqual(tree.hit(0, 0), "back")
        expectEqual(tree.hit(100, 10), "root")     // back's max x edge
        expectEqual(tree.hit(10, 100), "root")     // back's max y edge
        expectEqual(tree.hit(150, 60), "root")     // front's max x edge
        expectEqual(tree.hit(399.5, 399.5), "root")
        expectEqual(tree.hit(400, 10), "nil")
        expectEqual(tree.hit(10, 400), "nil")
        expectEqual(tree.hit(-0.5, 10), "nil")
    }

    @Test func pointIsInTheSuperlayersCoordinates() {
        // Asked directly, front takes points in root's space: (60,60) is front's (10,10).
        expectEqual(hitName(tree.front.hitTest(CGPoint(x: 60, y: 60))), "front")
        expectEqual(hitName(tree.front.hitTest(CGPoint(x: 10, y: 10))), "nil")
        expectEqual(hitName(tree.inner.hitTest(CGPoint(x: 90, y: 90))), "inner")
    }

    @Test func aSublayerOutsideItsSuperlayerIsHitWhenNothingMasks() {
        // (170,170) is front-local (120,120): outside front, inside inner.
        expectEqual(tree.hit(170, 170), "inner")
    }

    @Test func masksToBoundsHidesSublayersOutsideTheBounds() {
        tree.front.masksToBounds = true
        expectEqual(tree.hit(170, 170), "root")
        expectEqual(tree.hit(140, 140), "inner")   // inside front, so still visible
        expectEqual(tree.hit(60, 60), "front")
    }

    @Test func hiddenLayersAndTheirSubtreesAreSkipped() {
        tree.front.isHidden = true
        expectEqual(tree.hit(60, 60), "back")
        expectEqual(tree.hit(140, 140), "root")
        expectEqual(tree.hit(170, 170), "root")
        tree.back.isHidden = true
        expectEqual(tree.hit(60, 60), "root")
        tree.root.isHidden = true
        expectEqual(tree.hit(300, 300), "nil")
    }

    @Test func aHiddenLeafLetsItsSuperlayerBeHit() {
        tree.inner.isHidden = true
        expectEqual(tree.hit(140, 140), "front")
        expectEqual(tree.hit(170, 170), "root")
    }

    @Test func opacityDoesNotMatterToLayers() {
        tree.front.opacity = 0
        expectEqual(tree.hit(60, 60), "front")
    }

    @Test func higherZPositionComesToTheFront() {
        tree.back.zPosition = 1
        expectEqual(tree.hit(60, 60), "back")
        tree.back.zPosition = 0
        tree.front.zPosition = -1
        expectEqual(tree.hit(60, 60), "back")
        tree.front.zPosition = 0
        expectEqual(tree.hit(60, 60), "front")
        // zPosition only orders siblings: inner's does not lift it above anything outside front.
        tree.back.zPosition = 2
        tree.inner.zPosition = 100
        expectEqual(tree.hit(60, 60), "back")
    }

    @Test func transformsAreHonoured() {
        let root = namedLayer("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let bar = NamedLayer("bar")
        bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
        bar.position = CGPoint(x: 200, y: 200)
        bar.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        root.addSublayer(bar)
        // Turned a quarter about its centre, the bar covers x 190…210, y 150…250.
        // (200,160): offset (0,-40) from the anchor, turned back (x,y) ↦ (y,-x) to
        // (-40,0), plus the anchor (50,10) = (10,10): inside.
        expectEqual(hitName(root.hitTest(CGPoint(x: 200, y: 160))), "bar")
        // (240,205) is inside the unturned bar (150…250, 190…210) but not the turned one:
        // offset (40,5) ↦ (5,-40), plus (50,10) = (55,-30).
        expectEqual(hitName(root.hitTest(CGPoint(x: 240, y: 205))), "root")
    }

    @Test func aLayerWithASingularTransformIsNeverHit() {
        let root = namedLayer("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let flat = namedLayer("flat", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        flat.setAffineTransform(CGAffineTransform(scaleX: 0, y: 1))
        root.addSublayer(flat)
        expectEqual(hitName(root.hitTest(CGPoint(x: 50, y: 50))), "root")
    }

    @Test func boundsOriginOffsetsTheSublayers() {
        let root = namedLayer("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let scroller = namedLayer("scroller", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        scroller.bounds.origin = CGPoint(x: 50, y: 50)
        let item = namedLayer("item", frame: CGRect(x: 50, y: 50, width: 10, height: 10))
        scroller.addSublayer(item)
        root.addSublayer(scroller)
        // (5,5) in root is scroller-local (55,55), which is inside item (50…60).
        expectEqual(hitName(root.hitTest(CGPoint(x: 5, y: 5))), "item")
        // (55,55) in root is scroller-local (105,105): not item, but inside the scroller (50…150).
        expectEqual(hitName(root.hitTest(CGPoint(x: 55, y: 55))), "scroller")
    }

    @Test func anOverriddenContainsDecides() {
        final class RoundLayer: CALayer {
            required init() { super.init() }
            override func contains(_ point: CGPoint) -> Bool {
                let dx = point.x - bounds.midX, dy = point.y - bounds.midY
                return dx * dx + dy * dy < (bounds.width / 2) * (bounds.width / 2)
            }
        }
        let root = namedLayer("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let round = RoundLayer()
        round.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(round)
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === round)
        expectEqual(hitName(root.hitTest(CGPoint(x: 5, y: 5))), "root")  // a corner outside the circle
    }
}

@MainActor
final class DisplayRecorder: CALayerDelegate {
    var displayed: [ObjectIdentifier] = []
    var marksAgain = false

    func display(_ layer: CALayer) {
        displayed.append(ObjectIdentifier(layer))
        if marksAgain { layer.setNeedsDisplay() }
    }
}

@MainActor
final class SilentDelegate: CALayerDelegate {}

@MainActor
@Suite struct CALayerDisplayTests {
    @Test func displayIfNeededCallsTheDelegateOnceAfterSetNeedsDisplay() {
        let layer = CALayer()
        let recorder = DisplayRecorder()
        layer.delegate = recorder
        layer.setNeedsDisplay()
        #expect(layer.needsDisplay())
        #expect(recorder.displayed.isEmpty)  // nothing happens until asked
        layer.displayIfNeeded()
        expectEqual(recorder.displayed, [ObjectIdentifier(layer)])
        #expect(!layer.needsDisplay())
        layer.displayIfNeeded()
        expectEqual(recorder.displayed.count, 1)
    }

    @Test func severalMarksGiveOneDisplay() {
        let layer = CALayer()
        let recorder = DisplayRecorder()
        layer.delegate = recorder
        layer.setNeedsDisplay()
        layer.setNeedsDisplay()
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        layer.displayIfNeeded()
        expectEqual(recorder.displayed.count, 1)
    }

    @Test func nothingIsDisplayedWithoutAMark() {
        let layer = CALayer()
        let recorder = DisplayRecorder()
        layer.delegate = recorder
        layer.displayIfNeeded()
        #expect(recorder.displayed.isEmpty)
    }

    @Test func displayAsksTheDelegateEvenWithoutAMark() {
        let layer = CALayer()
        let recorder = DisplayRecorder()
        layer.delegate = recorder
        layer.display()
        expectEqual(recorder.displayed.count, 1)
    }

    @Test func aMarkMadeWhileDisplayingIsKeptForNextTime() {
        let layer = CALayer()
        let recorder = DisplayRecorder()
        recorder.marksAgain = true
        layer.delegate = recorder
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        expectEqual(recorder.displayed.count, 1)  // no loop within one pass
        #expect(layer.needsDisplay())
        recorder.marksAgain = false
        layer.displayIfNeeded()
        expectEqual(recorder.displayed.count, 2)
        #expect(!layer.needsDisplay())
    }

    @Test func displayOnlyConcernsTheMarkedLayer() {
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        let recorder = DisplayRecorder()
        parent.delegate = recorder
        child.delegate = recorder
        child.setNeedsDisplay()
        parent.displayIfNeeded()
        #expect(recorder.displayed.isEmpty)
        child.displayIfNeeded()
        expectEqual(recorder.displayed, [ObjectIdentifier(child)])
    }

    @Test func theDelegateIsWeakAndADelegateNeedNotImplementDisplay() {
        let layer = CALayer()
        do {
            let recorder = DisplayRecorder()
            layer.delegate = recorder
            #expect(layer.delegate === recorder)
        }
        #expect(layer.delegate == nil)
        layer.setNeedsDisplay()
        layer.displayIfNeeded()  // no delegate: nothing to call, the mark is cleared
        #expect(!layer.needsDisplay())

        let silent = SilentDelegate()
        layer.delegate = silent
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        #expect(!layer.needsDisplay())
    }
}
