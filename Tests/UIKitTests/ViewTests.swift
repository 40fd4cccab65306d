import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct ViewHierarchyTests {
    final class HookView: UIView {
        var log: CallLog?
        var name = ""
        override func willMove(toSuperview newSuperview: UIView?) { log?.add("\(name) willMoveToSuperview \(newSuperview == nil ? "nil" : "view")") }
        override func didMoveToSuperview() { log?.add("\(name) didMoveToSuperview") }
        override func willMove(toWindow newWindow: UIWindow?) { log?.add("\(name) willMoveToWindow \(newWindow == nil ? "nil" : "window")") }
        override func didMoveToWindow() { log?.add("\(name) didMoveToWindow \(window == nil ? "nil" : "window")") }
        override func didAddSubview(_ subview: UIView) { log?.add("\(name) didAddSubview") }
        override func willRemoveSubview(_ subview: UIView) { log?.add("\(name) willRemoveSubview") }
    }

    @Test func hooksRunInUIKitsOrderWhenAddingAndRemoving() {
        let window = makeWindow()
        let log = CallLog()
        let parent = HookView(frame: .zero)
        parent.name = "parent"; parent.log = log
        let child = HookView(frame: .zero)
        child.name = "child"; child.log = log
        let grandchild = HookView(frame: .zero)
        grandchild.name = "grandchild"; grandchild.log = log
        child.addSubview(grandchild)
        window.addSubview(parent)
        log.clear()

        parent.addSubview(child)
        #expect(log.entries == [
            "child willMoveToSuperview view", "child willMoveToWindow window", "grandchild willMoveToWindow window",
            "child didMoveToWindow window", "grandchild didMoveToWindow window", "child didMoveToSuperview", "parent didAddSubview",
        ])
        log.clear()
        child.removeFromSuperview()
        #expect(log.entries == [
            "parent willRemoveSubview", "child willMoveToSuperview nil", "child willMoveToWindow nil", "grandchild willMoveToWindow nil",
            "child didMoveToWindow nil", "grandchild didMoveToWindow nil", "child didMoveToSuperview",
        ])
        #expect(child.superview == nil)
        #expect(grandchild.window == nil)
    }

    @Test func subviewOrderingOperationsKeepTheLayerTreeInStep() {
        let parent = UIView()
        let hosted = CALayer()  // a sublayer of the view's own, not a view's
        parent.layer.addSublayer(hosted)
        let a = UIView(), b = UIView(), c = UIView(), d = UIView()
        parent.addSubview(a)
        parent.addSubview(b)
        parent.insertSubview(c, at: 0)
        expectEqual(parent.subviews, [c, a, b])
        parent.insertSubview(d, aboveSubview: c)
        expectEqual(parent.subviews, [c, d, a, b])
        parent.insertSubview(b, belowSubview: c)
        expectEqual(parent.subviews, [b, c, d, a])
        parent.bringSubviewToFront(b)
        expectEqual(parent.subviews, [c, d, a, b])
        parent.sendSubviewToBack(a)
        expectEqual(parent.subviews, [a, c, d, b])
        parent.exchangeSubview(at: 0, withSubviewAt: 3)
        expectEqual(parent.subviews, [b, c, d, a])
        parent.addSubview(c)  // already a subview: moves to the front
        expectEqual(parent.subviews, [b, d, a, c])

        let viewLayers = (parent.layer.sublayers ?? []).filter { $0 !== hosted }
        expectEqual(viewLayers.map(ObjectIdentifier.init), parent.subviews.map { ObjectIdentifier($0.layer) })
        expectEqual(parent.layer.sublayers?.contains { $0 === hosted }, true)
        #expect(a.layer.superlayer === parent.layer)
        #expect(a.layer.delegate === a)

        let other = UIView()
        other.addSubview(a)  // taken from its old superview
        expectEqual(parent.subviews, [b, d, c])
        #expect(a.superview === other)
        #expect(a.layer.superlayer === other.layer)
    }

    @Test func addSubviewPutsTheLayerAboveLayersTheViewHosts() {
        let parent = UIView()
        let a = UIView(), b = UIView()
        parent.addSubview(a)
        let hosted = CALayer()
        parent.layer.addSublayer(hosted)
        parent.addSubview(b)
        expectEqual(parent.layer.sublayers?.map(ObjectIdentifier.init), [a.layer, hosted, b.layer].map(ObjectIdentifier.init))
        parent.bringSubviewToFront(a)
        expectEqual(parent.layer.sublayers?.map(ObjectIdentifier.init), [hosted, b.layer, a.layer].map(ObjectIdentifier.init))
        // Moving a subview that is already last to the front keeps it on top.
        parent.addSubview(a)
        #expect(parent.layer.sublayers?.last === a.layer)
    }

    // UIKit puts the layer directly below (or above) the sibling's layer,
    // whatever the view's own sublayers around it: with a plain sublayer
    // between a and b, inserting c below b gives [a, sublayer, c, b].
    @Test func insertingBelowOrAboveASubviewPutsTheLayerDirectlyBesideTheSiblingsLayer() {
        let parent = UIView()
        let a = UIView(), b = UIView(), c = UIView(), d = UIView()
        parent.addSubview(a)
        let hosted = CALayer()
        parent.layer.addSublayer(hosted)
        parent.addSubview(b)
        parent.insertSubview(c, belowSubview: b)
        expectEqual(parent.subviews, [a, c, b])
        expectEqual(parent.layer.sublayers?.map(ObjectIdentifier.init), [a.layer, hosted, c.layer, b.layer].map(ObjectIdentifier.init))
        parent.insertSubview(d, aboveSubview: a)
        expectEqual(parent.subviews, [a, d, c, b])
        expectEqual(parent.layer.sublayers?.map(ObjectIdentifier.init), [a.layer, d.layer, hosted, c.layer, b.layer].map(ObjectIdentifier.init))
        parent.insertSubview(d, aboveSubview: d)  // beside itself: nothing changes
        expectEqual(parent.subviews, [a, d, c, b])
    }

    @Test func insertingBesideAViewThatIsNotASubviewAppends() {
        let parent = UIView(), stranger = UIView()
        let a = UIView(), b = UIView(), c = UIView()
        parent.addSubview(a)
        parent.insertSubview(b, belowSubview: stranger)
        parent.insertSubview(c, aboveSubview: stranger)
        expectEqual(parent.subviews, [a, b, c])
        expectEqual(parent.layer.sublayers?.map(ObjectIdentifier.init), [a.layer, b.layer, c.layer].map(ObjectIdentifier.init))
    }

    @Test func addingAViewIntoItsOwnSubtreeIsRefusedAndReported() {
        _ = makeWindow()
        let root = UIView(), child = UIView(), grandchild = UIView()
        root.addSubview(child)
        child.addSubview(grandchild)
        grandchild.addSubview(root)
        root.addSubview(root)
        child.insertSubview(root, at: 0)
        #expect(root.superview == nil)
        #expect(grandchild.subviews.isEmpty)
        expectEqual(root.subviews, [child])
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), [.hierarchyCycle, .hierarchyCycle, .hierarchyCycle])
        #expect(root.layer.superlayer == nil)
    }

    @Test func tagsAreFoundDepthFirst() {
        let root = UIView()
        let a = UIView(); a.tag = 1
        let b = UIView(); b.tag = 2
        let c = UIView(); c.tag = 2
        root.addSubview(a)
        a.addSubview(c)
        root.addSubview(b)
        #expect(root.viewWithTag(2) === c)
        #expect(root.viewWithTag(0) === root)
        #expect(root.viewWithTag(3) == nil)
    }

    @Test func geometryLivesInTheLayer() {
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        expectEqual(view.layer.position, CGPoint(x: 60, y: 45))
        expectEqual(view.center, CGPoint(x: 60, y: 45))
        expectEqual(view.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        view.center = CGPoint(x: 100, y: 100)
        expectEqual(view.frame, CGRect(x: 50, y: 75, width: 100, height: 50))
        view.transform = CGAffineTransform(scaleX: 2, y: 2)
        expectEqual(view.frame, CGRect(x: 0, y: 50, width: 200, height: 100))
        expectEqual(view.bounds.size, CGSize(width: 100, height: 50))
        view.alpha = 0.5
        expectEqual(view.layer.opacity, 0.5)
        view.isHidden = true
        #expect(view.layer.isHidden)
        view.clipsToBounds = true
        #expect(view.layer.masksToBounds)
        view.backgroundColor = .red
        expectEqual(view.layer.backgroundColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    @Test func nonFiniteGeometryIsRefusedAndReported() {
        _ = makeWindow()
        let view = UIView(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        view.frame = CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)
        view.center = CGPoint(x: 0, y: CGFloat.infinity)
        view.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1)
        view.transform = CGAffineTransform(scaleX: CGFloat.nan, y: 1)
        expectEqual(view.frame, CGRect(x: 1, y: 2, width: 3, height: 4))
        expectEqual(view.transform, .identity)
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), Array(repeating: .invalidGeometry, count: 4))
    }

    @Test func interactionDefaults() {
        #expect(UIView().isUserInteractionEnabled)
        #expect(!UIView().isMultipleTouchEnabled)
        #expect(!UIView().isExclusiveTouch)
        #expect(!UIImageView().isUserInteractionEnabled)
        #expect(!UILabel().isUserInteractionEnabled)
        #expect(UIWindow(frame: .zero).isHidden)
        expectEqual(UIImageView(image: UIImage(size: CGSize(width: 20, height: 10))).frame, CGRect(x: 0, y: 0, width: 20, height: 10))
    }

    final class CustomLayer: CALayer {}
    final class CustomLayerView: UIView {
        override class var layerClass: AnyClass { CustomLayer.self }
    }

    @Test func layerClassChoosesTheBackingLayer() {
        #expect(CustomLayerView().layer is CustomLayer)
    }
}

@MainActor
@Suite struct HitTestingTests {
    private func scene() -> (UIWindow, UIView, UIView) {
        let window = makeWindow()
        let parent = UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let child = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(parent)
        parent.addSubview(child)
        return (window, parent, child)
    }

    @Test func hiddenDisabledOrTransparentViewsAndTheirSubtreesAreSkipped() {
        let (window, parent, child) = scene()
        let point = CGPoint(x: 110, y: 110)
        #expect(window.hitTest(point, with: nil) === child)
        parent.isHidden = true
        #expect(window.hitTest(point, with: nil) === window)
        parent.isHidden = false
        parent.isUserInteractionEnabled = false
        #expect(window.hitTest(point, with: nil) === window)
        parent.isUserInteractionEnabled = true
        parent.alpha = 0.009
        #expect(window.hitTest(point, with: nil) === window)
        parent.alpha = 0.01
        #expect(window.hitTest(point, with: nil) === child)
        child.alpha = 0
        #expect(window.hitTest(point, with: nil) === parent)
    }

    @Test func minimumEdgesAreInsideAndMaximumEdgesAreNot() {
        let (window, parent, child) = scene()
        #expect(window.hitTest(CGPoint(x: 100, y: 100), with: nil) === child)
        #expect(window.hitTest(CGPoint(x: 150, y: 120), with: nil) === parent)
        #expect(window.hitTest(CGPoint(x: 199.999, y: 199.999), with: nil) === parent)
        #expect(window.hitTest(CGPoint(x: 200, y: 150), with: nil) === window)
        #expect(child.point(inside: CGPoint(x: 0, y: 0), with: nil))
        #expect(!child.point(inside: CGPoint(x: 50, y: 0), with: nil))
    }

    @Test func clippingDoesNotMatterOutsideTheParent() {
        let (window, parent, child) = scene()
        child.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        for clips in [false, true] {
            parent.clipsToBounds = clips
            #expect(window.hitTest(CGPoint(x: 220, y: 220), with: nil) === window)
            #expect(window.hitTest(CGPoint(x: 160, y: 160), with: nil) === child)
        }
    }

    @Test func hitTestingHonoursBoundsOriginAndTransforms() {
        let (window, parent, child) = scene()
        parent.bounds.origin = CGPoint(x: 40, y: 40)  // child now shows at window (60..110) clipped to parent's area
        #expect(window.hitTest(CGPoint(x: 105, y: 105), with: nil) === child)
        #expect(window.hitTest(CGPoint(x: 115, y: 115), with: nil) === parent)
        parent.bounds.origin = .zero
        parent.transform = CGAffineTransform(rotationAngle: .pi)  // turned about its centre (150,150)
        // The child's area, formerly at the top-left, is now at the bottom-right.
        #expect(window.hitTest(CGPoint(x: 190, y: 190), with: nil) === child)
        #expect(window.hitTest(CGPoint(x: 110, y: 110), with: nil) === parent)
        parent.transform = CGAffineTransform(scaleX: 0, y: 0)  // singular: nothing inside it can be hit
        #expect(window.hitTest(CGPoint(x: 150, y: 150), with: nil) === window)
    }

    @Test func conversionBetweenBranchesAndWindows() {
        let (window, parent, child) = scene()
        let other = UIView(frame: CGRect(x: 300, y: 0, width: 50, height: 50))
        other.bounds.origin = CGPoint(x: 5, y: 5)
        window.addSubview(other)
        expectEqual(child.convert(CGPoint(x: 10, y: 10), to: other), CGPoint(x: -185, y: 115))
        expectEqual(other.convert(CGPoint(x: -185, y: 115), to: child), CGPoint(x: 10, y: 10))
        expectEqual(child.convert(CGPoint(x: 10, y: 10), to: nil), CGPoint(x: 110, y: 110))
        expectEqual(child.convert(CGPoint(x: 110, y: 110), from: nil), CGPoint(x: 10, y: 10))
        expectEqual(parent.convert(CGRect(x: 0, y: 0, width: 10, height: 10), to: window), CGRect(x: 100, y: 100, width: 10, height: 10))
        child.transform = CGAffineTransform(rotationAngle: .pi / 2)  // about its centre (25,25) in parent
        let p = child.convert(CGPoint(x: 0, y: 0), to: parent)
        #expect(abs(p.x - 50) < 1e-9 && abs(p.y - 0) < 1e-9)
        child.layer.anchorPoint = CGPoint(x: 0, y: 0)  // now turned about its position (25,25)
        let q = child.convert(CGPoint(x: 10, y: 0), to: parent)
        #expect(abs(q.x - 25) < 1e-9 && abs(q.y - 35) < 1e-9)

        // Between windows, through the screen.
        let second = UIWindow(frame: CGRect(x: 50, y: 60, width: 100, height: 100))
        second.isHidden = false
        let inSecond = UIView(frame: CGRect(x: 10, y: 10, width: 10, height: 10))
        second.addSubview(inSecond)
        // (10,10) in a window at (50,60) is (60,70) on screen, (-40,-30) in parent at (100,100).
        expectEqual(inSecond.convert(CGPoint.zero, to: parent), CGPoint(x: -40, y: -30))
    }
}

/// The view tree's back references are not retained (as in UIKit); each is
/// cleared when its target goes away, so none is ever left dangling.
@MainActor
@Suite struct UnretainedReferenceTests {
    @Test func aSubviewOutlivingItsSuperviewHasNoSuperview() {
        let child = UIView()
        let recognizer = UITapGestureRecognizer()
        let layer: CALayer
        do {
            let parent = UIView()
            parent.addSubview(child)
            parent.addGestureRecognizer(recognizer)
            layer = parent.layer
            #expect(child.superview === parent)
            #expect(child.layer.superlayer === layer)
            #expect(layer.delegate === parent)
        }
        #expect(child.superview == nil)
        #expect(recognizer.view == nil)
        #expect(layer.delegate == nil)
        #expect(child.layer.superlayer === layer)  // the layer itself is still alive
    }

    @Test func aSublayerOutlivingItsSuperlayerHasNoSuperlayer() {
        let sublayer = CALayer()
        do {
            let layer = CALayer()
            layer.addSublayer(sublayer)
            #expect(sublayer.superlayer === layer)
        }
        #expect(sublayer.superlayer == nil)
    }

    @Test func aLayerDelegateOtherThanItsViewIsHeldWeakly() {
        final class Drawer: CALayerDelegate {}
        let layer = CALayer()
        do {
            let drawer = Drawer()
            layer.delegate = drawer
            #expect(layer.delegate === drawer)
        }
        #expect(layer.delegate == nil)
    }
}

@MainActor
@Suite struct WindowLifetimeTests {
    @Test func aWindowThatGoesAwayLeavesTheApplicationsListsAndTouchesGoElsewhere() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        do {
            let front = UIWindow(frame: window.frame)
            front.windowLevel = .alert
            front.makeKeyAndVisible()
            expectEqual(UIApplication.shared.windows.count, 2)
            #expect(UIApplication.shared.keyWindow === front)
        }
        expectEqual(UIApplication.shared.windows.count, 1)
        #expect(UIApplication.shared.keyWindow == nil)
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 5, y: 5))
        expectEqual(view.phases, ["began", "ended"])
    }

    /// The layers the screen's compositor stacks, kept from turn to turn,
    /// follow every window shown, hidden, moved to another level or gone.
    @Test func theLayersTheScreenStacksFollowTheWindows() {
        let window = makeWindow()
        let application = UIApplication.shared
        func stack() -> [ObjectIdentifier] { application.windowLayersBackToFront().map(ObjectIdentifier.init) }
        expectEqual(stack(), [ObjectIdentifier(window.layer)])
        do {
            let front = UIWindow(frame: window.frame)
            expectEqual(stack(), [ObjectIdentifier(window.layer)])
            front.makeKeyAndVisible()
            expectEqual(stack(), [ObjectIdentifier(window.layer), ObjectIdentifier(front.layer)])
            window.windowLevel = .statusBar
            expectEqual(stack(), [ObjectIdentifier(front.layer), ObjectIdentifier(window.layer)])
            front.windowLevel = .alert
            expectEqual(stack(), [ObjectIdentifier(window.layer), ObjectIdentifier(front.layer)])
            front.isHidden = true
            expectEqual(stack(), [ObjectIdentifier(window.layer)])
            front.isHidden = false
            expectEqual(stack(), [ObjectIdentifier(window.layer), ObjectIdentifier(front.layer)])
        }
        expectEqual(stack(), [ObjectIdentifier(window.layer)])
    }

    @Test func aRecognizerWithAPendingTimerCanGoAway() {
        let (window, synthesizer) = (makeWindow(), TouchSynthesizer(window: UIApplication.shared.windows[0]))
        do {
            let view = UIView(frame: window.bounds)
            window.addSubview(view)
            let doubleTap = UITapGestureRecognizer()
            doubleTap.numberOfTapsRequired = 2
            view.addGestureRecognizer(doubleTap)
            synthesizer.tap(at: CGPoint(x: 5, y: 5))  // leaves the double tap waiting, with a timer
            view.removeFromSuperview()
        }
        synthesizer.advance(by: 1)  // the view is gone; the recognizer's timer fires harmlessly
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
    }
}

@MainActor
@Suite struct CoderInitializerTests {
    /// The subclass pattern UIKit code uses everywhere compiles and works.
    final class CardView: UIView {
        let badge = UIView()

        override init(frame: CGRect) {
            super.init(frame: frame)
            addSubview(badge)
        }

        required init?(coder: NSCoder) {
            super.init(coder: coder)
            addSubview(badge)
        }
    }

    @Test func viewsMadeFromACoderAreDefaultViews() throws {
        let coder = NSCoder()
        let card = try #require(CardView(coder: coder))
        expectEqual(card.frame, .zero)
        expectEqual(card.subviews, [card.badge])
        #expect(card.layer.delegate === card)
        let window = try #require(UIWindow(coder: coder))
        #expect(window.isHidden)
        #expect(UIApplication.shared.windows.contains(window))
        #expect(UIButton(coder: coder)?.titleLabel != nil)
        let scrollView = try #require(UIScrollView(coder: coder))
        #expect(scrollView.panGestureRecognizer.view === scrollView)
    }
}

@MainActor
@Suite struct HitTestMutationTests {
    /// A view whose `hitTest` rebuilds its superview's subviews while the
    /// superview is iterating them.
    final class RebuildingView: UIView {
        override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
            if let parent = superview {
                for sibling in parent.subviews where sibling !== self { sibling.removeFromSuperview() }
                for _ in 0..<20 { parent.addSubview(UIView(frame: CGRect(x: 500, y: 500, width: 1, height: 1))) }
            }
            return nil
        }
    }

    @Test func changingTheSubviewsDuringAHitTestIsSafe() {
        let window = makeWindow()
        let parent = UIView(frame: window.bounds)
        window.addSubview(parent)
        let below = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        parent.addSubview(below)
        parent.addSubview(RebuildingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100)))
        // The loop goes on over the subviews as they were when it started.
        #expect(window.hitTest(CGPoint(x: 10, y: 10), with: nil) === below)
        #expect(below.superview == nil)
        expectEqual(parent.subviews.count, 21)
    }
}
