import TestExpectations
import Testing
@testable import UIKit

/// The experiments of the seed articles, one test each. Frames
/// are in superview coordinates; the logs are what the overridden methods
/// would print, in order.
@MainActor
@Suite struct SeedScenarioTests {
    // MARK: A. Nested views (seed 000)

    /// Controller view ← grey (100,100,100,100) ← red (10,10,30,30); each overrides touchesBegan.
    private func nestedViews(redLogs: Bool = true, callsSuper: Bool = false) -> (CallLog, TouchSynthesizer, LoggingView) {
        let log = CallLog()
        let controller = LoggingViewController()
        controller.log = log
        controller.callsSuper = callsSuper
        let (_, synthesizer) = makeScene(controller)
        let grey = LoggingView("grey", frame: CGRect(x: 100, y: 100, width: 100, height: 100), log: log, callsSuper: callsSuper)
        let red = LoggingView("red", frame: CGRect(x: 10, y: 10, width: 30, height: 30), log: log, callsSuper: callsSuper)
        red.logsTouches = redLogs
        controller.view.addSubview(grey)
        grey.addSubview(red)
        return (log, synthesizer, red)
    }

    /// Scenario A's views override only touchesBegan.
    private func beganCalls(_ log: CallLog) -> [String] {
        log.entries.filter { $0.hasSuffix("began") }
    }

    @Test func scenarioA_tapRunsOnlyTheTouchedViewsOverride() {
        let (log, synthesizer, _) = nestedViews()
        synthesizer.tap(at: CGPoint(x: 120, y: 120))
        expectEqual(beganCalls(log), ["red began"])
        log.clear()
        synthesizer.tap(at: CGPoint(x: 150, y: 150))
        expectEqual(beganCalls(log), ["grey began"])
        log.clear()
        synthesizer.tap(at: CGPoint(x: 50, y: 50))
        expectEqual(beganCalls(log), ["controller began"])
    }

    @Test func scenarioA_viewWithoutOverridePassesToItsSuperview() {
        let (log, synthesizer, _) = nestedViews(redLogs: false)
        synthesizer.tap(at: CGPoint(x: 120, y: 120))
        expectEqual(beganCalls(log), ["grey began"])
    }

    @Test func scenarioA_childIsNotHitOutsideItsParent() {
        let (log, synthesizer, red) = nestedViews()
        red.frame = CGRect(x: 10, y: 10, width: 120, height: 120)
        synthesizer.tap(at: CGPoint(x: 210, y: 210))  // on red, outside grey
        expectEqual(beganCalls(log), ["controller began"])
        log.clear()
        synthesizer.tap(at: CGPoint(x: 190, y: 190))  // on red, inside grey
        expectEqual(beganCalls(log), ["red began"])
    }

    @Test func scenarioA_overridesCallingSuperRunUpTheChain() {
        let (log, synthesizer, _) = nestedViews(callsSuper: true)
        synthesizer.tap(at: CGPoint(x: 120, y: 120))
        expectEqual(log.entries, ["red began", "grey began", "controller began", "red ended", "grey ended", "controller ended"])
    }

    // MARK: B. The traced hierarchy (seed 000)

    private struct TracedHierarchy {
        let log: CallLog
        let synthesizer: TouchSynthesizer
        let root, lightGrey, yellow, red, green: LoggingView
    }

    /// Root ← light grey (33,147,240,128), yellow (33,303,240,128); light grey ← red (0,0,196,100), green (138,57,94,63).
    private func tracedHierarchy(
        lightGreyClass: LoggingView.Type = LoggingView.self,
        yellowClass: LoggingView.Type = LoggingView.self,
        redClass: LoggingView.Type = LoggingView.self,
        greenClass: LoggingView.Type = LoggingView.self
    ) -> TracedHierarchy {
        let log = CallLog()
        let window = makeWindow()
        let root = LoggingView("root", frame: window.bounds, log: log)
        func make(_ type: LoggingView.Type, _ name: String, _ frame: CGRect) -> LoggingView {
            let view = type.init(frame: frame)
            view.name = name
            view.log = log
            view.logsHitTesting = true
            view.callsSuper = true
            return view
        }
        let lightGrey = make(lightGreyClass, "light grey", CGRect(x: 33, y: 147, width: 240, height: 128))
        let yellow = make(yellowClass, "yellow", CGRect(x: 33, y: 303, width: 240, height: 128))
        let red = make(redClass, "red", CGRect(x: 0, y: 0, width: 196, height: 100))
        let green = make(greenClass, "green", CGRect(x: 138, y: 57, width: 94, height: 63))
        window.addSubview(root)
        root.addSubview(lightGrey)
        root.addSubview(yellow)
        lightGrey.addSubview(red)
        lightGrey.addSubview(green)
        return TracedHierarchy(log: log, synthesizer: TouchSynthesizer(window: window), root: root,
                               lightGrey: lightGrey, yellow: yellow, red: red, green: green)
    }

    @Test func scenarioB_traceOfHitTestingAndDelivery() {
        let scene = tracedHierarchy()
        scene.synthesizer.tap(at: CGPoint(x: 56.67, y: 167))
        #expect(scene.log.entries == [
            "yellow hitTest", "yellow inside (23.67,-136.00) false", "yellow → nil",
            "light grey hitTest", "light grey inside (23.67,20.00) true",
            "green hitTest", "green inside (-114.33,-37.00) false", "green → nil",
            "red hitTest", "red inside (23.67,20.00) true", "red → red",
            "light grey → red",
            "red began", "light grey began", "root began",
            "red ended", "light grey ended", "root ended",
        ])
    }

    final class AlwaysInsideView: LoggingView {
        override func point(inside point: CGPoint, with event: UIEvent?) -> Bool { true }
    }

    @Test func scenarioB_laterSiblingThatClaimsEveryPointSwallowsTheTouch() {
        let scene = tracedHierarchy(yellowClass: AlwaysInsideView.self)
        scene.synthesizer.tap(at: CGPoint(x: 56.67, y: 167))
        expectEqual(scene.log.entries.first(where: { $0.hasSuffix("began") }), "yellow began")
        #expect(!scene.log.entries.contains("light grey hitTest"))
    }

    /// Green refuses points with x < 58 and y < 37 (its top-left corner).
    final class ShrunkGreenView: LoggingView {
        override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
            if point.x < 58 && point.y < 37 { return false }
            return super.point(inside: point, with: event)
        }
    }

    @Test func scenarioB_shrinkingATouchArea() {
        let plain = tracedHierarchy()
        plain.synthesizer.tap(at: CGPoint(x: 208.67, y: 225))
        expectEqual(plain.log.entries.first(where: { $0.hasSuffix("began") }), "green began")

        let shrunk = tracedHierarchy(greenClass: ShrunkGreenView.self)
        shrunk.synthesizer.tap(at: CGPoint(x: 208.67, y: 225))
        expectEqual(shrunk.log.entries.first(where: { $0.hasSuffix("began") }), "red began")
    }

    final class RefusingView: LoggingView {
        override func point(inside point: CGPoint, with event: UIEvent?) -> Bool { false }
    }

    /// Red accepts its bounds and the rect green covers, (138,57,94,63).
    final class ExtendedRedView: LoggingView {
        override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
            super.point(inside: point, with: event) || CGRect(x: 138, y: 57, width: 94, height: 63).contains(point)
        }
    }

    @Test func scenarioB_extendingATouchArea() {
        for windowPoint in [CGPoint(x: 253, y: 257), CGPoint(x: 175, y: 210), CGPoint(x: 264, y: 266)] {
            let scene = tracedHierarchy(redClass: ExtendedRedView.self, greenClass: RefusingView.self)
            scene.synthesizer.tap(at: windowPoint)
            expectEqual(scene.log.entries.first(where: { $0.hasSuffix("began") }), "red began", "at \(windowPoint)")
        }
    }

    // MARK: C. Apple's example (seeds 002, 003)

    @Test func scenarioC_visitsOnlyTheBranchThatContainsThePoint() {
        let log = CallLog()
        let window = makeWindow()
        func view(_ name: String, _ frame: CGRect) -> LoggingView {
            let v = LoggingView(name, frame: frame, log: log, hitTesting: true)
            v.logsTouches = false
            return v
        }
        let a = view("A", CGRect(x: 0, y: 0, width: 300, height: 300))
        let b = view("B", CGRect(x: 0, y: 0, width: 100, height: 300))
        let c = view("C", CGRect(x: 100, y: 0, width: 200, height: 300))
        let d = view("D", CGRect(x: 10, y: 10, width: 50, height: 50))
        let e = view("E", CGRect(x: 0, y: 0, width: 200, height: 150))
        let f = view("F", CGRect(x: 0, y: 150, width: 200, height: 150))
        window.addSubview(a)
        a.addSubview(b)
        b.addSubview(d)
        a.addSubview(c)
        c.addSubview(e)
        c.addSubview(f)

        let hit = window.hitTest(CGPoint(x: 150, y: 50), with: nil)
        #expect(hit === e)
        #expect(log.entries.filter { $0.hasSuffix("hitTest") || $0.contains("→") } == [
            "A hitTest", "C hitTest", "F hitTest", "F → nil", "E hitTest", "E → E", "C → E", "A → E",
        ])
        #expect(!log.entries.contains { $0.hasPrefix("B") || $0.hasPrefix("D") })
    }

    // MARK: D. Override in the parent (seed 004)

    final class FirstSubviewWinsView: UIView {
        override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
            self.point(inside: point, with: event) ? subviews[0] : nil
        }
    }

    final class SelfishView: RecordingView {
        override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
            self.point(inside: point, with: event) ? self : nil
        }
    }

    @Test func scenarioD_parentOverrideSendsEveryTouchToItsFirstSubview() {
        let window = makeWindow()
        let white = FirstSubviewWinsView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let red = RecordingView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        let green = RecordingView(frame: CGRect(x: 80, y: 80, width: 100, height: 100))
        window.addSubview(white)
        white.addSubview(red)
        white.addSubview(green)
        let synthesizer = TouchSynthesizer(window: window)
        for point in [CGPoint(x: 50, y: 50), CGPoint(x: 100, y: 100), CGPoint(x: 150, y: 150), CGPoint(x: 250, y: 250)] {
            synthesizer.tap(at: point)
        }
        expectEqual(red.phases, Array(repeating: ["began", "ended"], count: 4).flatMap { $0 })
        #expect(green.calls.isEmpty)
    }

    @Test func scenarioD_childOverrideDoesNotBeatALaterSibling() {
        let window = makeWindow()
        let white = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let red = SelfishView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        let green = RecordingView(frame: CGRect(x: 80, y: 80, width: 100, height: 100))
        window.addSubview(white)
        white.addSubview(red)
        white.addSubview(green)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))  // both cover it; green is asked first
        expectEqual(green.phases, ["began", "ended"])
        #expect(red.calls.isEmpty)
        synthesizer.tap(at: CGPoint(x: 50, y: 50))  // red alone
        expectEqual(red.phases, ["began", "ended"])
    }

    // MARK: E. Out-of-bounds child (seed 003)

    final class ReachingParentView: UIView {
        override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
            if let hit = super.hitTest(point, with: event) { return hit }
            guard isUserInteractionEnabled, !isHidden, alpha >= 0.01 else { return nil }
            for subview in subviews.reversed() {
                if let hit = subview.hitTest(convert(point, to: subview), with: event) { return hit }
            }
            return nil
        }
    }

    @Test func scenarioE_parentThatReachesOutsideItsBoundsMakesAStickingOutChildHittable() {
        for reaching in [false, true] {
            let window = makeWindow()
            let root = RecordingView(frame: window.bounds)
            let parent = reaching ? ReachingParentView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
                                  : UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
            let child = RecordingView(frame: CGRect(x: 80, y: 80, width: 50, height: 50))
            window.addSubview(root)
            root.addSubview(parent)
            parent.addSubview(child)
            TouchSynthesizer(window: window).tap(at: CGPoint(x: 220, y: 220))  // the part of child outside parent
            expectEqual(child.calls.isEmpty, !reaching)
            expectEqual(root.calls.isEmpty, reaching)
        }
    }

    // MARK: F. Tap outside a popup (seed 003)

    final class PopupOverlay: UIView {
        let content = UIView(frame: CGRect(x: 100, y: 200, width: 200, height: 200))
        var dismissals = 0

        override init(frame: CGRect) {
            super.init(frame: frame)
            addSubview(content)
        }

        required init?(coder: NSCoder) { nil }

        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
            guard let touch = touches.first else { return }
            if content.hitTest(touch.location(in: content), with: event) == nil {
                dismissals += 1
                removeFromSuperview()
            }
        }
    }

    @Test func scenarioF_tapOutsideThePopupDismissesIt() {
        let window = makeWindow()
        let overlay = PopupOverlay(frame: window.bounds)
        window.addSubview(overlay)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.tap(at: CGPoint(x: 150, y: 250))  // on the content: it forwards to the overlay, which keeps it
        expectEqual(overlay.dismissals, 0)
        #expect(overlay.superview === window)
        synthesizer.tap(at: CGPoint(x: 20, y: 20))
        expectEqual(overlay.dismissals, 1)
        #expect(overlay.superview == nil)
    }

    // MARK: G. Background tap under a presented controller (seed 002)

    @Test func scenarioG_backgroundTapUnderAPresentedController() {
        let window = makeWindow()
        let root = UIViewController()
        window.rootViewController = root
        let presented = UIViewController()
        root.present(presented, animated: false)
        presented.view.frame = CGRect(x: 0, y: 400, width: 400, height: 400)  // covers the lower half
        let container = presented.view.superview!
        let background = RecordingView(frame: container.bounds)
        container.insertSubview(background, belowSubview: presented.view)
        var taps = 0
        background.addGestureRecognizer(UITapGestureRecognizer { _ in taps += 1 })
        let synthesizer = TouchSynthesizer(window: window)

        synthesizer.tap(at: CGPoint(x: 200, y: 600))  // covered by the presented view
        expectEqual(taps, 0)
        #expect(background.calls.isEmpty)
        synthesizer.tap(at: CGPoint(x: 200, y: 200))  // uncovered
        expectEqual(taps, 1)
        // The tap recognized at touch-up and cancels the touch in the view.
        expectEqual(background.phases, ["began", "cancelled"])
    }

    // MARK: I. Image view (seeds 002, 004)

    @Test func scenarioI_viewInsideAnImageViewGetsTouchesOnlyOnceInteractionIsEnabled() {
        let window = makeWindow()
        let root = RecordingView(frame: window.bounds)
        let imageView = UIImageView(image: UIImage(size: CGSize(width: 300, height: 300)))
        imageView.frame = CGRect(x: 50, y: 50, width: 300, height: 300)
        let button = RecordingView(frame: CGRect(x: 100, y: 100, width: 80, height: 40))
        window.addSubview(root)
        root.addSubview(imageView)
        imageView.addSubview(button)
        #expect(!imageView.isUserInteractionEnabled)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.tap(at: CGPoint(x: 170, y: 170))
        #expect(button.calls.isEmpty)
        expectEqual(root.phases, ["began", "ended"])

        imageView.isUserInteractionEnabled = true
        synthesizer.tap(at: CGPoint(x: 170, y: 170))
        expectEqual(button.phases, ["began", "ended"])
    }

    // MARK: J. Responder chain (seeds 001, 003)

    final class AppDelegate: UIResponder, UIApplicationDelegate {}

    @Test func scenarioJ_nextFollowsTheChainToTheApplicationDelegate() {
        let window = makeWindow()
        let application = UIApplication.shared
        let delegate = AppDelegate()
        application.delegate = delegate
        let root = UIViewController()
        window.rootViewController = root
        let subview = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        root.view.addSubview(subview)

        let child = UIViewController()
        root.addChild(child)
        root.view.addSubview(child.view)
        child.didMove(toParent: root)
        let childSubview = UIView()
        child.view.addSubview(childSubview)

        let presented = UIViewController()
        root.present(presented, animated: false)
        let presentedSubview = UIView()
        presented.view.addSubview(presentedSubview)

        // Identities, compared as [ObjectIdentifier]; the chains are built
        // in typed constants, which the type checker resolves at once.
        func chain(from responder: UIResponder) -> [ObjectIdentifier] {
            var result: [ObjectIdentifier] = []
            var current: UIResponder? = responder
            while let r = current, result.count < 20 { result.append(ObjectIdentifier(r)); current = r.next }
            return result
        }
        func identities(_ responders: [UIResponder]) -> [ObjectIdentifier] { responders.map(ObjectIdentifier.init) }
        let expectedTail: [UIResponder] = [root.view, root, window, application, delegate]
        let subviewChain: [UIResponder] = [subview] + expectedTail
        let childSubviewChain: [UIResponder] = [childSubview, child.view, child] + expectedTail
        expectEqual(chain(from: subview), identities(subviewChain))
        expectEqual(chain(from: childSubview), identities(childSubviewChain))

        // The default style, a page sheet: the view is in the sheet's card,
        // in a UITransitionView.
        let container = try! #require(presented.view.superview?.superview as? UITransitionView)
        #expect(container.superview === window)
        #expect(window.subviews.last === container)
        let presentedChain: [UIResponder] = [presentedSubview, presented.view, presented, root, window, application, delegate]
        expectEqual(chain(from: presentedSubview), identities(presentedChain))
    }

    // MARK: H. Scroll view and button (seed 001)

    /// A 400×800 scroll view over 400×4000 of content, with a button at (100,100,200,60).
    private func buttonInScrollView(
        _ scrollView: UIScrollView = UIScrollView(), delaysContentTouches: Bool
    ) -> (UIScrollView, ScenarioHButton, TouchSynthesizer) {
        let window = makeWindow()
        scrollView.frame = window.bounds
        scrollView.contentSize = CGSize(width: 400, height: 4000)
        scrollView.delaysContentTouches = delaysContentTouches
        let button = ScenarioHButton(frame: CGRect(x: 100, y: 100, width: 200, height: 60))
        scrollView.addSubview(button)
        window.addSubview(scrollView)
        return (scrollView, button, TouchSynthesizer(window: window))
    }

    @Test func scenarioH_withDelayAQuickTapStillTriggersTheButton() {
        let (_, button, synthesizer) = buttonInScrollView(delaysContentTouches: true)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        synthesizer.advance(by: 0.08)
        #expect(!button.isHighlighted)
        synthesizer.touchUp(finger)
        expectEqual(button.touchUpInsideCount, 1)
        expectEqual(button.highlightChanges, [true, false])  // at the release, began then ended
    }

    @Test func scenarioH_withDelayTheHighlightStartsOnlyAfter150ms() {
        let (_, button, synthesizer) = buttonInScrollView(delaysContentTouches: true)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        synthesizer.advance(by: 0.149)
        #expect(!button.isHighlighted)
        synthesizer.advance(by: 0.002)
        #expect(button.isHighlighted)
        synthesizer.touchUp(finger)
        #expect(button.touchUpInsideCount == 1 && !button.isHighlighted)
    }

    @Test func scenarioH_withDelayADragStartingOnTheButtonScrollsAndNeverHighlightsIt() {
        let (scrollView, button, synthesizer) = buttonInScrollView(delaysContentTouches: true)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        for (step, y) in [115, 100, 85, 70].enumerated() {
            synthesizer.advance(by: 0.02)
            synthesizer.touchMove(finger, to: CGPoint(x: 200, y: CGFloat(y)))
            if step == 0 { #expect(scrollView.isDragging) }
        }
        synthesizer.advance(by: 0.3)
        synthesizer.touchUp(finger)
        expectEqual(scrollView.contentOffset.y, 45)  // 60 pt dragged, less the 15 pt before the pan began
        #expect(button.highlightChanges.isEmpty)
        #expect(button.touchUpInsideCount == 0 && button.touchCancelCount == 0)
    }

    @Test func scenarioH_withoutDelayTheButtonHighlightsAtOnceAndADragOnItDoesNotScroll() {
        let (scrollView, button, synthesizer) = buttonInScrollView(delaysContentTouches: false)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        #expect(button.isHighlighted)
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 130), to: CGPoint(x: 200, y: 70), steps: 4, over: 0.08)
        #expect(scrollView.contentOffset == .zero && !scrollView.isDragging)
        #expect(button.isHighlighted)  // controls are not cancelled by default
        synthesizer.touchUp(finger)
        #expect(button.touchUpInsideCount == 1 && button.touchCancelCount == 0)
        expectEqual(scrollView.contentOffset, .zero)
    }

    @Test func scenarioH_withoutDelayADragOnTheButtonScrollsWhenTouchesShouldCancelSaysSo() {
        final class CancellingScrollView: UIScrollView {
            override func touchesShouldCancel(in view: UIView) -> Bool { true }
        }
        let (scrollView, button, synthesizer) = buttonInScrollView(CancellingScrollView(), delaysContentTouches: false)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        #expect(button.isHighlighted)
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 130), to: CGPoint(x: 200, y: 70), steps: 4, over: 0.08)
        #expect(scrollView.isDragging && scrollView.contentOffset.y == 45)
        #expect(!button.isHighlighted && button.touchCancelCount == 1)
        synthesizer.touchUp(finger)
        expectEqual(button.touchUpInsideCount, 0)
    }

    // MARK: H, the button half: a button and a tap recognizer on its parent (seed 001)

    @Test func scenarioH_aButtonsActionWinsOverATapRecognizerOnItsParent() {
        let window = makeWindow()
        let parent = RecordingView(frame: window.bounds)
        window.addSubview(parent)
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 100, y: 100, width: 200, height: 60)
        parent.addSubview(button)
        let log = CallLog()
        button.addAction(UIAction { _ in log.add("button tapped") }, for: .touchUpInside)
        parent.addGestureRecognizer(UITapGestureRecognizer { _ in log.add("parent tapped") })
        let synthesizer = TouchSynthesizer(window: window)

        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        #expect(button.isHighlighted)  // at once: the recognizer does not delay touches began
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["button tapped"])
        #expect(!button.isHighlighted)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 50, y: 400))  // beside the button: the parent's tap
        expectEqual(log.entries, ["button tapped", "parent tapped"])
    }

    @Test func scenarioH_aUIButtonInAScrollView() {
        let window = makeWindow()
        let scrollView = UIScrollView(frame: window.bounds)
        scrollView.contentSize = CGSize(width: 400, height: 4000)
        let button = UIButton(frame: CGRect(x: 100, y: 100, width: 200, height: 60))
        scrollView.addSubview(button)
        window.addSubview(scrollView)
        let log = CallLog()
        for (event, name) in [(UIControl.Event.touchDown, "down"), (.touchDragInside, "drag"), (.touchUpInside, "up"), (.touchCancel, "cancel")] {
            button.addAction(UIAction { _ in log.add(name) }, for: event)
        }
        let synthesizer = TouchSynthesizer(window: window)

        // Delayed content touches: the highlight waits 150 ms; the tap still lands.
        var finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        synthesizer.advance(by: 0.149)
        #expect(!button.isHighlighted && log.entries.isEmpty)
        synthesizer.advance(by: 0.002)
        #expect(button.isHighlighted && log.entries == ["down"])
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["down", "up"])

        // A drag that starts on the button scrolls; the button never sees it.
        synthesizer.advance(by: 1)
        log.clear()
        finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        for y in [115, 100, 85] {
            synthesizer.advance(by: 0.02)
            synthesizer.touchMove(finger, to: CGPoint(x: 200, y: CGFloat(y)))
        }
        synthesizer.touchUp(finger)
        #expect(scrollView.contentOffset.y > 0 && log.entries.isEmpty)

        // Without the delay the button highlights at once and keeps a drag that starts on it.
        synthesizer.advance(by: 5)
        scrollView.contentOffset = .zero
        scrollView.delaysContentTouches = false
        finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
        #expect(button.isHighlighted)
        for y in [115, 100, 85] {
            synthesizer.advance(by: 0.02)
            synthesizer.touchMove(finger, to: CGPoint(x: 200, y: CGFloat(y)))
        }
        synthesizer.touchUp(finger)
        expectEqual(scrollView.contentOffset, .zero)
        expectEqual(log.entries, ["down", "drag", "drag", "drag", "up"])
    }

    // MARK: I, with a real button (seeds 002, 004)

    @Test func scenarioI_aButtonInsideAnImageViewIsTappableOnlyOnceInteractionIsEnabled() {
        let window = makeWindow()
        let root = RecordingView(frame: window.bounds)
        let imageView = UIImageView(image: UIImage(size: CGSize(width: 300, height: 300)))
        imageView.frame = CGRect(x: 50, y: 50, width: 300, height: 300)
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 100, y: 100, width: 80, height: 40)
        window.addSubview(root)
        root.addSubview(imageView)
        imageView.addSubview(button)
        var taps = 0
        button.addAction(UIAction { _ in taps += 1 }, for: .touchUpInside)
        let synthesizer = TouchSynthesizer(window: window)

        synthesizer.tap(at: CGPoint(x: 170, y: 170))
        #expect(taps == 0 && !button.isHighlighted)
        expectEqual(root.phases, ["began", "ended"])

        imageView.isUserInteractionEnabled = true
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 170, y: 170))
        expectEqual(taps, 1)
        expectEqual(root.phases, ["began", "ended"])  // the button kept its touch
    }
}

/// Scenario H's button: a UIButton that remembers how its highlight
/// changed and counts its touch-up-inside and touch-cancel events.
@MainActor
final class ScenarioHButton: UIButton {
    private(set) var highlightChanges: [Bool] = []
    private(set) var touchUpInsideCount = 0
    private(set) var touchCancelCount = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        addAction(UIAction { [unowned self] _ in touchUpInsideCount += 1 }, for: .touchUpInside)
        addAction(UIAction { [unowned self] _ in touchCancelCount += 1 }, for: .touchCancel)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override var isHighlighted: Bool {
        didSet { if isHighlighted != oldValue { highlightChanges.append(isHighlighted) } }
    }
}
