import DrawingTestSupport
import TestExpectations
import Testing
@testable import UIKit

// UINavigationController: the stack and what its operations return, the
// appearance callbacks in UIKit's order, the bar and its back button, the
// back swipe (completed, cancelled, flung, interrupted, beside a scroll
// view), the delegate's animators, and pictures of a bar and of a swipe
// half way.
//
// The order of appearance callbacks is iOS's as logged by
// wangling.me, "The Inconsistent Order of View Transition Events" (2014):
// a push or pop, interactive or not, tells the current controller
// viewWillDisappear, the new one viewWillAppear, then the current
// viewDidDisappear and the new viewDidAppear; a cancelled interactive pop
// tells the current viewWillDisappear, the new viewWillAppear, then the new
// viewWillDisappear and viewDidDisappear, then the current viewWillAppear
// and viewDidAppear.

@MainActor
final class NavigationTracingController: UIViewController {
    var log: CallLog?
    var name = ""
    var logsContainment = false

    convenience init(_ name: String, log: CallLog?) {
        self.init()
        self.name = name
        self.log = log
        title = name
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
    }
    override func viewWillAppear(_ animated: Bool) { log?.add("\(name) viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { log?.add("\(name) viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { log?.add("\(name) viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { log?.add("\(name) viewDidDisappear") }
    override func willMove(toParent parent: UIViewController?) {
        if logsContainment { log?.add("\(name) willMove \(parent == nil ? "nil" : "parent")") }
    }
    override func didMove(toParent parent: UIViewController?) {
        if logsContainment { log?.add("\(name) didMove \(parent == nil ? "nil" : "parent")") }
    }
}

@MainActor
private final class NavigationLog: UINavigationControllerDelegate {
    let log: CallLog
    var animator: UIViewControllerAnimatedTransitioning?
    var interaction: UIViewControllerInteractiveTransitioning?
    init(log: CallLog) { self.log = log }

    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {
        log.add("willShow \(viewController.title ?? "")")
    }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        log.add("didShow \(viewController.title ?? "")")
    }

    func navigationController(
        _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
        from fromVC: UIViewController, to toVC: UIViewController
    ) -> UIViewControllerAnimatedTransitioning? {
        if animator != nil { log.add("animator for \(operation == .push ? "push" : "pop") \(fromVC.title ?? "") → \(toVC.title ?? "")") }
        return animator
    }

    func navigationController(
        _ navigationController: UINavigationController, interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
    ) -> UIViewControllerInteractiveTransitioning? {
        interaction
    }
}

/// An animator that logs what it is given and ends the transition when told.
@MainActor
private final class LoggingAnimator: UIViewControllerAnimatedTransitioning {
    let log: CallLog
    var context: UIViewControllerContextTransitioning?
    init(log: CallLog) { self.log = log }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let from = transitionContext.viewController(forKey: .from)?.title ?? "", to = transitionContext.viewController(forKey: .to)?.title ?? ""
        let toInContainer = transitionContext.view(forKey: .to)?.superview === transitionContext.containerView
        log.add("animate \(from) → \(to), incoming view in container \(toInContainer)")
        context = transitionContext
    }

    func animationEnded(_ transitionCompleted: Bool) {
        log.add("animationEnded \(transitionCompleted)")
    }
}

@MainActor
private final class LoggingInteraction: UIViewControllerInteractiveTransitioning {
    let log: CallLog
    var context: UIViewControllerContextTransitioning?
    init(log: CallLog) { self.log = log }

    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        log.add("startInteractive, interactive \(transitionContext.isInteractive)")
        context = transitionContext
    }
}

/// The window of the scene the running test works in, kept until the next
/// test makes its own (a window is not kept by the application).
@MainActor private var sceneWindow: UIWindow?

@MainActor
@Suite struct NavigationControllerTests {
    /// A navigation controller filling a window of `size`, with `names`
    /// pushed in order (the first the root), each logging to `log`.
    private func stack(
        _ names: [String], log: CallLog? = nil, size: CGSize = CGSize(width: 320, height: 480)
    ) -> (UINavigationController, [NavigationTracingController], UIWindow, TouchSynthesizer) {
        let window = makeWindow(frame: CGRect(origin: .zero, size: size))
        let controllers = names.map { NavigationTracingController($0, log: log) }
        let navigation = UINavigationController(rootViewController: controllers[0])
        for controller in controllers.dropFirst() { navigation.pushViewController(controller, animated: false) }
        window.rootViewController = navigation
        navigation.view.layoutIfNeeded()
        sceneWindow = window
        log?.clear()
        return (navigation, controllers, window, TouchSynthesizer(window: window))
    }

    /// Moves the clock on until any transition's animation has ended (the
    /// slide takes 0.35 s).
    private func finishAnimations() {
        UIApplication.shared.runLoop.advance(by: 0.4)
    }

    private func centre(of view: UIView, in window: UIWindow) -> CGPoint {
        let frame = view.convert(view.bounds, to: window)
        return CGPoint(x: frame.midX, y: frame.midY)
    }

    // MARK: The stack

    @Test func stackOperationsReturnWhatTheyPopped() {
        let (navigation, c, _, _) = stack(["a", "b", "c", "d"])
        #expect(navigation.viewControllers == c && navigation.topViewController === c[3])
        #expect(c.allSatisfy { $0.navigationController === navigation && $0.parent === navigation })
        expectEqual(navigation.children, c)
        #expect(navigation.popViewController(animated: false) === c[3])
        #expect(c[3].parent == nil && c[3].navigationController == nil && c[3].viewIfLoaded?.superview == nil)
        expectEqual(navigation.popToViewController(c[1], animated: false), [c[2]])
        expectEqual(navigation.popToViewController(c[1], animated: false), [], "popping to the top pops nothing")
        #expect(navigation.popToViewController(c[3], animated: false) == nil, "not in the stack")
        expectEqual(UIApplication.shared.diagnostics.entries.count, 1)
        navigation.pushViewController(c[2], animated: false)
        navigation.pushViewController(c[3], animated: false)
        expectEqual(navigation.popToRootViewController(animated: false), [c[1], c[2], c[3]])
        #expect(navigation.popToRootViewController(animated: false) == nil && navigation.popViewController(animated: false) == nil)
        #expect(navigation.viewControllers == [c[0]] && c[0].view.superview != nil)
        navigation.pushViewController(c[0], animated: false)
        #expect(navigation.viewControllers == [c[0]] && UIApplication.shared.diagnostics.entries.count == 2, "already in the stack")
        navigation.setViewControllers([c[2], c[1]], animated: false)
        #expect(navigation.viewControllers == [c[2], c[1]] && c[0].parent == nil && navigation.topViewController === c[1])
        #expect(c[1].view.superview != nil && c[1].view.window != nil && c[0].viewIfLoaded?.superview == nil)
        navigation.setViewControllers([c[1], c[1]], animated: false)
        expectEqual(navigation.viewControllers, [c[2], c[1]], "a repeated controller is refused")
    }

    @Test func visibleViewControllerIsWhatIsPresentedOverTheTop() {
        let (navigation, c, _, _) = stack(["a", "b"])
        #expect(navigation.visibleViewController === c[1])
        let sheet = UIViewController()
        c[1].present(sheet, animated: false)
        #expect(navigation.visibleViewController === sheet && navigation.topViewController === c[1])
    }

    /// UIKit's iOS 7 and later layout: the top view fills the navigation
    /// controller's and reaches under the translucent bar, its safe area
    /// starting below the bar; it starts below an opaque bar unless it asks
    /// to extend under opaque bars too, and below any bar when its
    /// `edgesForExtendedLayout` leaves out the top.
    @Test func theTopViewReachesUnderTheBarWithItsSafeAreaBelowItAndTheBarCanHide() {
        let (navigation, c, _, _) = stack(["a", "b"])
        let bar = navigation.navigationBar
        // 44 points: iOS's bar height without large titles.
        #expect(bar.frame == CGRect(x: 0, y: 0, width: 320, height: 44) && bar.isTranslucent)
        expectEqual(c[1].view.convert(c[1].view.bounds, to: navigation.view), CGRect(x: 0, y: 0, width: 320, height: 480))
        expectEqual(c[1].view.safeAreaInsets, UIEdgeInsets(top: 44, left: 0, bottom: 0, right: 0))
        navigation.setNavigationBarHidden(true, animated: false)
        #expect(navigation.isNavigationBarHidden && bar.isHidden)
        expectEqual(c[1].view.convert(c[1].view.bounds, to: navigation.view), CGRect(x: 0, y: 0, width: 320, height: 480))
        expectEqual(c[1].view.safeAreaInsets, .zero)
        navigation.isNavigationBarHidden = false
        expectEqual(c[1].view.safeAreaInsets.top, 44)

        bar.isTranslucent = false
        navigation.view.layoutIfNeeded()
        expectEqual(c[1].view.convert(c[1].view.bounds, to: navigation.view), CGRect(x: 0, y: 44, width: 320, height: 436))
        expectEqual(c[1].view.safeAreaInsets, .zero)
        c[1].extendedLayoutIncludesOpaqueBars = true
        navigation.view.layoutIfNeeded()
        #expect(c[1].view.frame.minY == 0 && c[1].view.safeAreaInsets.top == 44)
        bar.isTranslucent = true
        c[1].edgesForExtendedLayout = [.left, .bottom, .right]
        navigation.view.layoutIfNeeded()
        #expect(c[1].view.convert(c[1].view.bounds, to: navigation.view).minY == 44 && c[1].view.safeAreaInsets == .zero)
    }

    @Test func aControllerPushedBeforeTheViewLoadsIsShownWhenItDoes() {
        _ = makeWindow()
        let root = UIViewController(), second = UIViewController()
        let navigation = UINavigationController(rootViewController: root)
        navigation.pushViewController(second, animated: true)
        #expect(!second.isViewLoaded && !root.isViewLoaded, "nothing loads before the navigation controller's view")
        #expect(second.view.superview == nil)
        navigation.loadViewIfNeeded()
        #expect(second.view.superview != nil && root.viewIfLoaded?.superview == nil)
    }

    // MARK: Appearance order

    @Test func pushTellsTheOutgoingThenTheIncomingThenTheDidPair() {
        let log = CallLog()
        let (navigation, c, _, _) = stack(["root"], log: log)
        let delegate = NavigationLog(log: log)
        navigation.delegate = delegate
        let second = NavigationTracingController("second", log: log)
        second.logsContainment = true
        navigation.pushViewController(second, animated: true)
        expectEqual(log.entries, ["second willMove parent", "willShow second", "root viewWillDisappear", "second viewWillAppear"], "the did pair waits for the slide")
        finishAnimations()
        #expect(log.entries == [
            "second willMove parent", "willShow second",
            "root viewWillDisappear", "second viewWillAppear",
            "root viewDidDisappear", "second viewDidAppear",
            "second didMove parent", "didShow second",
        ])
        #expect(c[0].viewIfLoaded?.superview == nil && second.view.window != nil)
        #expect(navigation.navigationBar.topItem === second.navigationItem && navigation.navigationBar.backItem === c[0].navigationItem)
    }

    @Test func popTellsTheTopThenTheOneBelow() {
        let log = CallLog()
        let (navigation, c, _, _) = stack(["a", "b"], log: log)
        c[1].logsContainment = true
        let delegate = NavigationLog(log: log)
        navigation.delegate = delegate
        navigation.popViewController(animated: true)
        finishAnimations()
        #expect(log.entries == [
            "b willMove nil", "willShow a",
            "b viewWillDisappear", "a viewWillAppear",
            "b viewDidDisappear", "a viewDidAppear",
            "b didMove nil", "didShow a",
        ])
    }

    @Test func popToRootTellsOnlyTheTopAndTheRoot() {
        let log = CallLog()
        let (navigation, _, _, _) = stack(["a", "b", "c", "d"], log: log)
        navigation.popToRootViewController(animated: false)
        expectEqual(log.entries, ["d viewWillDisappear", "a viewWillAppear", "d viewDidDisappear", "a viewDidAppear"])
    }

    @Test func setViewControllersPushesANewTopAndPopsToAnOldOne() {
        let log = CallLog()
        let (navigation, c, _, _) = stack(["a", "b"], log: log)
        let x = NavigationTracingController("x", log: log)
        navigation.setViewControllers([c[0], x], animated: false)
        expectEqual(log.entries, ["b viewWillDisappear", "x viewWillAppear", "b viewDidDisappear", "x viewDidAppear"])
        log.clear()
        navigation.setViewControllers([c[0]], animated: false)
        expectEqual(log.entries, ["x viewWillDisappear", "a viewWillAppear", "x viewDidDisappear", "a viewDidAppear"])
        log.clear()
        navigation.setViewControllers([x, c[0]], animated: false)
        #expect(log.entries.isEmpty, "the top stays: nothing appears or disappears")
        #expect(navigation.navigationBar.backItem === x.navigationItem)
    }

    @Test func anAnimatedPushSlidesBothViewsAndTakesNoTouches() throws {
        let (navigation, c, window, synthesizer) = stack(["a"])
        var tapped = 0
        let button = UIButton(type: .system, primaryAction: UIAction { _ in tapped += 1 })
        button.frame = CGRect(x: 100, y: 100, width: 100, height: 44)
        c[0].view.addSubview(button)
        let b = NavigationTracingController("b", log: nil)
        navigation.pushViewController(b, animated: true)
        #expect(b.view.frame.minX == 0 && c[0].view.frame.minX == -96, "the model is where the slide ends")
        var last: CGFloat = 320
        for _ in 1...3 {
            synthesizer.advance(by: 0.05)
            let shown = try #require(b.view.layer.presentation()).frame.minX
            let below = try #require(c[0].view.layer.presentation()).frame.minX
            #expect(shown > 0 && shown < last, "the top view slides in from the trailing edge")
            // The one below moves 30 % of the width as the top one moves all of it.
            #expect(abs(below / -96 - (1 - shown / 320)) < 1e-6)
            last = shown
        }
        synthesizer.tap(at: centre(of: button, in: window))
        expectEqual(tapped, 0, "no touches while the transition runs")
        finishAnimations()
        #expect(c[0].viewIfLoaded?.superview == nil && navigation.transition == nil && b.view.layer.animationKeys() == nil)
        #expect(navigation.navigationBar.titleLabelView.text == "b" && navigation.navigationBar.incomingTitleLabelView == nil)
    }

    @Test func theBarSlidesAwayAndBackWhenAnimated() throws {
        let (navigation, c, _, synthesizer) = stack(["a"])
        let bar = navigation.navigationBar
        navigation.setNavigationBarHidden(true, animated: true)
        #expect(navigation.isNavigationBarHidden && !bar.isHidden, "shown while it slides away")
        #expect(bar.frame.minY == -44 && c[0].view.convert(c[0].view.bounds, to: navigation.view) == CGRect(x: 0, y: 0, width: 320, height: 480))
        synthesizer.advance(by: 0.1)
        let shownY = try #require(bar.layer.presentation()).frame.minY
        #expect(shownY < 0 && shownY > -44)
        synthesizer.advance(by: 0.2)
        #expect(bar.isHidden)
        navigation.setNavigationBarHidden(false, animated: true)
        #expect(!bar.isHidden && bar.frame.minY == 0 && c[0].view.safeAreaInsets.top == 44)
        synthesizer.advance(by: 0.3)
        #expect(!navigation.isNavigationBarHidden && !bar.isHidden)
    }

    @Test func nothingIsToldOffScreen() {
        let log = CallLog()
        let controllers = ["a", "b"].map { NavigationTracingController($0, log: log) }
        let navigation = UINavigationController(rootViewController: controllers[0])
        navigation.loadViewIfNeeded()
        navigation.pushViewController(controllers[1], animated: true)
        navigation.popViewController(animated: true)
        #expect(log.entries.isEmpty)
    }

    // MARK: The bar and its back button

    @Test func theBarShowsTheTopTitleAndABackButtonToThePreviousOne() {
        let (navigation, c, window, synthesizer) = stack(["Settings", "General"])
        let bar = navigation.navigationBar
        bar.layoutIfNeeded()
        #expect(bar.titleLabelView.text == "General" && !bar.backButtonControl.isHidden)
        expectEqual(bar.titleLabelView.font.pointSize, 17, "iOS's title is 17-point semibold")
        synthesizer.tap(at: centre(of: bar.backButtonControl, in: window))
        expectEqual(navigation.viewControllers, [c[0]])
        finishAnimations()
        expectEqual(bar.titleLabelView.text, "Settings")
        #expect(bar.backButtonControl.isHidden, "no back button at the root")
    }

    @Test func theBackButtonSaysBackWhenThePreviousTitleDoesNotFit() {
        let (navigation, c, _, _) = stack(["Short", "Title"])
        let bar = navigation.navigationBar
        c[0].navigationItem.backButtonTitle = "Everything"
        bar.layoutIfNeeded()
        let withTitle = bar.backButtonControl.frame.width
        c[0].navigationItem.backButtonTitle = nil
        c[0].title = "A title far too long to fit beside the other one"
        bar.layoutIfNeeded()
        let withBack = bar.backButtonControl.frame.width
        #expect(withBack < withTitle && withBack > NavigationMetrics.backChevronSize.width + 2 * NavigationMetrics.backChevronLeading)
        c[1].title = "A title that takes the whole width of the bar"
        bar.layoutIfNeeded()
        expectEqual(bar.backButtonControl.frame.width, NavigationMetrics.backChevronSize.width + 2 * NavigationMetrics.backChevronLeading, "only the chevron")
        #expect(bar.titleLabelView.frame.minX >= bar.backButtonControl.frame.maxX)
    }

    @Test func barButtonItemsSendTheirActions() throws {
        let (navigation, c, window, synthesizer) = stack(["a", "b"])
        var tapped: [String] = []
        let edit = UIBarButtonItem(title: "Edit", primaryAction: UIAction { _ in tapped.append("edit") })
        let add = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { _ in tapped.append("add") })
        c[1].navigationItem.rightBarButtonItems = [edit, add]
        let bar = navigation.navigationBar
        bar.layoutIfNeeded()
        let editView = try #require(bar.view(for: edit)), addView = try #require(bar.view(for: add))
        expectEqual(editView.frame.maxX, 320 - NavigationMetrics.edgeMargin, "the first item is outermost")
        expectEqual(addView.frame.maxX, editView.frame.minX - NavigationMetrics.itemSpacing)
        synthesizer.tap(at: centre(of: editView, in: window))
        synthesizer.advance(by: 1)
        synthesizer.tap(at: centre(of: addView, in: window))
        expectEqual(tapped, ["edit", "add"])
        add.isEnabled = false
        bar.layoutIfNeeded()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: centre(of: try #require(bar.view(for: add)), in: window))
        expectEqual(tapped, ["edit", "add"], "a disabled item is not tapped")

        // A left item replaces the back button unless it supplements it.
        let cancel = UIBarButtonItem(barButtonSystemItem: .cancel, target: nil, action: nil)
        c[1].navigationItem.leftBarButtonItem = cancel
        bar.layoutIfNeeded()
        #expect(bar.backButtonControl.isHidden && bar.view(for: cancel)?.frame.minX == NavigationMetrics.edgeMargin)
        c[1].navigationItem.leftItemsSupplementBackButton = true
        bar.layoutIfNeeded()
        #expect(!bar.backButtonControl.isHidden && bar.view(for: cancel)!.frame.minX > bar.backButtonControl.frame.maxX)
    }

    /// A controller that performs the bar's "share:" action, as an
    /// Objective-C controller would implement `share(_:)`.
    private final class Sharer: UIViewController {
        var shares: [String] = []
        override func handler(forAction action: Selector) -> ActionHandler? {
            guard action == "share:" else { return super.handler(forAction: action) }
            return { @MainActor [unowned self] sender in shares.append("\(type(of: sender!))") }
        }
    }

    @Test func anImageItemShowsItsImageAsATemplateAndSendsItsActionToItsTarget() throws {
        let (navigation, c, window, synthesizer) = stack(["a", "b"])
        let sharer = Sharer()
        // A drawn image (a symbol image is a template already).
        let image = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 20)).image { context in
            UIColor.red.setFill()
            context.fill(CGRect(x: 2, y: 2, width: 16, height: 16))
        }
        expectEqual(image.renderingMode, .automatic)
        let share = UIBarButtonItem(image: image, style: .plain, target: sharer, action: "share:")
        c[1].navigationItem.rightBarButtonItem = share
        let bar = navigation.navigationBar
        bar.layoutIfNeeded()
        let button = try #require(bar.view(for: share) as? UIButton)
        expectEqual(button.frame.width, NavigationMetrics.itemImageSide)
        expectEqual(button.frame.maxX, 320 - NavigationMetrics.edgeMargin)
        // UIKit draws a bar item's image as a template in the tint.
        expectEqual(button.image(for: .normal)?.renderingMode, .alwaysTemplate)
        expectEqual(button.title(for: .normal), nil)
        synthesizer.tap(at: centre(of: button, in: window))
        expectEqual(sharer.shares, ["UIBarButtonItem"], "the item is the sender, as UIKit sends it")
    }

    @Test func aTitleViewTakesTheTitlesPlace() {
        let (navigation, c, _, _) = stack(["a"])
        let segmented = UIView(frame: CGRect(x: 0, y: 0, width: 120, height: 30))
        c[0].navigationItem.titleView = segmented
        navigation.navigationBar.layoutIfNeeded()
        #expect(segmented.isDescendant(of: navigation.navigationBar) && navigation.navigationBar.titleLabelView.isHidden)
        expectEqual(segmented.frame, CGRect(x: 100, y: 7, width: 120, height: 30))
        c[0].navigationItem.titleView = nil
        #expect(segmented.superview == nil)
    }

    // MARK: The back swipe

    /// Drags a finger from the leading edge to `x` (at y 300), one move per
    /// 20 points, 16 ms apart; returns the finger, still down.
    private func swipe(to x: CGFloat, _ synthesizer: TouchSynthesizer, from start: CGFloat = 5) -> Int {
        let finger = synthesizer.touchDown(at: CGPoint(x: start, y: 300))
        var position = start
        while position < x {
            position = min(x, position + 20)
            synthesizer.advance(by: 0.016)
            synthesizer.touchMove(finger, to: CGPoint(x: position, y: 300))
        }
        return finger
    }

    /// Lets go after the finger has rested long enough to have no speed,
    /// and lets the views slide to where the swipe ends.
    private func letGoSlowly(_ finger: Int, _ synthesizer: TouchSynthesizer) {
        synthesizer.advance(by: 0.2)
        synthesizer.touchUp(finger)
        finishAnimations()
    }

    @Test func theBackSwipeMovesBothViewsWithTheFingerAndCompletesPastHalfWay() {
        let log = CallLog()
        let (navigation, c, _, synthesizer) = stack(["a", "b"], log: log)
        let finger = swipe(to: 85, synthesizer)
        expectEqual(log.entries, ["b viewWillDisappear", "a viewWillAppear"])
        expectEqual(navigation.viewControllers, [c[0]], "the stack changes when the transition starts")
        // The finger moved 80 points from where it landed: the top view by
        // as much, the one below from -30 % of the width toward 0.
        expectEqual(c[1].view.frame.minX, 80)
        #expect(abs(c[0].view.frame.minX - -96 * (1 - 80.0 / 320)) < 0.001)
        #expect(c[0].view.superview === c[1].view.superview && c[0].view.superview!.subviews.firstIndex(of: c[0].view)! < c[0].view.superview!.subviews.firstIndex(of: c[1].view)!)
        // The bar cross-fades from b's title to a's, a quarter of the way.
        let bar = navigation.navigationBar
        #expect(bar.titleLabelView.text == "b" && bar.titleLabelView.superview?.alpha == 0.75)
        #expect(bar.incomingTitleLabelView?.text == "a" && bar.incomingTitleLabelView?.superview?.alpha == 0.25)
        synthesizer.advance(by: 0.016)
        synthesizer.touchMove(finger, to: CGPoint(x: 205, y: 300))
        #expect(c[1].view.frame.minX == 200 && abs(c[0].view.frame.minX - -96 * (1 - 200.0 / 320)) < 0.001, "frame by frame")
        letGoSlowly(finger, synthesizer)
        expectEqual(log.entries, ["b viewWillDisappear", "a viewWillAppear", "b viewDidDisappear", "a viewDidAppear"])
        #expect(navigation.viewControllers == [c[0]] && c[1].parent == nil && c[1].viewIfLoaded?.superview == nil)
        expectEqual(c[0].view.frame, CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(bar.topItem === c[0].navigationItem && bar.titleLabelView.text == "a" && bar.titleLabelView.superview?.alpha == 1)
        #expect(bar.incomingTitleLabelView == nil && bar.backButtonControl.isHidden)
    }

    @Test func theBackSwipePopsThroughPopViewController() {
        final class CountingNavigationController: UINavigationController {
            var pops = 0
            override func popViewController(animated: Bool) -> UIViewController? {
                pops += 1
                return super.popViewController(animated: animated)
            }
        }
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let root = UIViewController(), top = UIViewController()
        let navigation = CountingNavigationController(rootViewController: root)
        navigation.pushViewController(top, animated: false)
        window.rootViewController = navigation
        let synthesizer = TouchSynthesizer(window: window)
        let finger = swipe(to: 205, synthesizer)
        expectEqual(navigation.pops, 1, "a subclass sees the swipe's pop as it starts, as in UIKit")
        letGoSlowly(finger, synthesizer)
        #expect(navigation.pops == 1 && navigation.viewControllers == [root])
    }

    @Test func aBackSwipeLetGoShortOfHalfWayIsCancelled() {
        let log = CallLog()
        let (navigation, c, _, synthesizer) = stack(["a", "b"], log: log)
        let delegate = NavigationLog(log: log)
        navigation.delegate = delegate
        let finger = swipe(to: 125, synthesizer)
        #expect(navigation.navigationBar.topItem === c[1].navigationItem, "the bar changes only if the pop completes")
        letGoSlowly(finger, synthesizer)
        #expect(log.entries == [
            "willShow a", "b viewWillDisappear", "a viewWillAppear",
            "a viewWillDisappear", "a viewDidDisappear", "b viewWillAppear", "b viewDidAppear",
        ], "no didShow for a pop that did not happen")
        #expect(navigation.viewControllers == c && c[1].parent === navigation)
        #expect(c[1].view.frame == CGRect(x: 0, y: 0, width: 320, height: 480) && c[0].viewIfLoaded?.superview == nil)
        #expect(navigation.transition == nil)
        let bar = navigation.navigationBar
        #expect(bar.topItem === c[1].navigationItem && bar.titleLabelView.text == "b" && bar.titleLabelView.superview?.alpha == 1)
        #expect(bar.incomingTitleLabelView == nil && !bar.backButtonControl.isHidden)
    }

    @Test func aFlingDecidesByItsDirection() {
        let (navigation, c, _, synthesizer) = stack(["a", "b"])
        // 60 points in 48 ms, well over one width (320 points) per second.
        let forward = swipe(to: 65, synthesizer)
        synthesizer.touchUp(forward)
        finishAnimations()
        expectEqual(navigation.viewControllers, [c[0]], "flung toward the trailing edge short of half way: popped")

        navigation.pushViewController(c[1], animated: false)
        synthesizer.advance(by: 1)
        let back = swipe(to: 305, synthesizer)
        for x in stride(from: 285, through: 205, by: -20) {
            synthesizer.advance(by: 0.016)
            synthesizer.touchMove(back, to: CGPoint(x: CGFloat(x), y: 300))
        }
        synthesizer.touchUp(back)
        finishAnimations()
        expectEqual(navigation.viewControllers, c, "flung back past half way: cancelled")
    }

    /// Near the decisive speed (NavigationMetrics.backSwipeDecisiveSpeed, one
    /// width a second): a swipe let go short of half way, still moving at
    /// 0.9 widths a second, is cancelled by its position; at 1.1 widths a
    /// second it pops by its direction.
    @Test(arguments: [(0.9, false), (1.1, true)])
    func aSwipeLetGoShortOfHalfWayPopsOnlyFasterThanOneWidthASecond(widthsPerSecond: Double, pops: Bool) {
        let (navigation, c, _, synthesizer) = stack(["a", "b"])
        let step = CGFloat(widthsPerSecond) * 320 * 0.016
        let finger = synthesizer.touchDown(at: CGPoint(x: 5, y: 300))
        var x: CGFloat = 5
        while x < 5 + 0.4 * 320 {
            x += step
            synthesizer.advance(by: 0.016)
            synthesizer.touchMove(finger, to: CGPoint(x: x, y: 300))
        }
        synthesizer.touchUp(finger)
        finishAnimations()
        expectEqual(navigation.viewControllers, pops ? [c[0]] : c)
    }

    @Test func anInterruptedBackSwipeIsUndoneAndWaitingPushesRunAfter() {
        let log = CallLog()
        let (navigation, c, window, synthesizer) = stack(["a", "b"], log: log)
        var tapped = 0
        let button = UIButton(type: .system, primaryAction: UIAction { _ in tapped += 1 })
        button.frame = CGRect(x: 200, y: 100, width: 100, height: 44)
        c[1].view.addSubview(button)
        _ = swipe(to: 205, synthesizer)
        #expect(navigation.transition != nil)

        // While the swipe runs the navigation controller's view takes no new touches…
        synthesizer.tap(at: centre(of: button, in: window))
        expectEqual(tapped, 0)
        // …and a push waits for the transition to end.
        let c2 = NavigationTracingController("c", log: log)
        navigation.pushViewController(c2, animated: false)
        #expect(c2.parent == nil)

        // The system takes the finger away (a call comes in): the views
        // slide back, still taking no touches, and the pop is undone.
        synthesizer.cancelAllTouches()
        synthesizer.advance(by: 0.1)
        #expect(c[1].view.layer.presentation()!.frame.minX > 0 && c[1].view.frame.minX == 0, "on its way back")
        synthesizer.tap(at: centre(of: button, in: window))
        #expect(tapped == 0 && log.entries.count == 2)
        finishAnimations()
        #expect(log.entries == [
            "b viewWillDisappear", "a viewWillAppear",
            "a viewWillDisappear", "a viewDidDisappear", "b viewWillAppear", "b viewDidAppear",
            "b viewWillDisappear", "c viewWillAppear", "b viewDidDisappear", "c viewDidAppear",
        ])
        #expect(navigation.viewControllers == [c[0], c[1], c2] && navigation.transition == nil)
        #expect(window.hitTest(CGPoint(x: 160, y: 300), with: nil)?.isDescendant(of: c2.view) == true, "touches reach the content again")
    }

    @Test func theBackSwipeDoesNothingAtTheRootOrWithoutABackButton() {
        let log = CallLog()
        let (navigation, c, _, synthesizer) = stack(["a"], log: log)
        let content = RecordingView(frame: c[0].view.bounds)
        c[0].view.addSubview(content)
        let finger = swipe(to: 205, synthesizer)
        #expect(navigation.transition == nil && c[0].view.frame.minX == 0)
        synthesizer.touchUp(finger)
        #expect(log.entries.isEmpty)
        #expect(content.phases.first == "began" && content.phases.last == "ended", "the swipe never began, so the content keeps its touch")

        let b = NavigationTracingController("b", log: log)
        navigation.pushViewController(b, animated: false)
        b.navigationItem.hidesBackButton = true
        log.clear()
        synthesizer.advance(by: 1)
        synthesizer.touchUp(swipe(to: 205, synthesizer))
        #expect(navigation.viewControllers.count == 2 && log.entries.isEmpty)
        // A swipe starting 30 points in is not from the edge.
        b.navigationItem.hidesBackButton = false
        synthesizer.advance(by: 1)
        letGoSlowly(swipe(to: 255, synthesizer, from: 30), synthesizer)
        expectEqual(navigation.viewControllers.count, 2)
        synthesizer.advance(by: 1)
        letGoSlowly(swipe(to: 255, synthesizer), synthesizer)
        expectEqual(navigation.viewControllers.count, 1)
    }

    @Test func theEdgeSwipeWinsAtTheEdgeAndTheScrollViewElsewhere() {
        let (navigation, c, _, synthesizer) = stack(["a", "b"])
        // A scroll view that scrolls both ways, from the middle of its width,
        // so that a sideways drag is one it wants too.
        let scrollView = UIScrollView(frame: c[1].view.bounds)
        // Its offsets are the point here: none of the bar's inset is taken in.
        scrollView.contentInsetAdjustmentBehavior = .never
        scrollView.contentSize = CGSize(width: 960, height: 2000)
        scrollView.contentOffset = CGPoint(x: 320, y: 0)
        c[1].view.addSubview(scrollView)

        // Up the screen from the middle: the scroll view scrolls, nothing
        // pops. (A scroll view follows the finger from where its pan began,
        // at the first 20-point move: 100 points of drag scroll 80.)
        /// Drags a finger 100 points up the screen at `x`, then lets go slowly.
        func dragUp(at x: CGFloat) {
            let finger = synthesizer.touchDown(at: CGPoint(x: x, y: 400))
            for step in 1...5 {
                synthesizer.advance(by: 0.016)
                synthesizer.touchMove(finger, to: CGPoint(x: x, y: 400 - CGFloat(step) * 20))
            }
            letGoSlowly(finger, synthesizer)
        }
        dragUp(at: 160)
        #expect(scrollView.contentOffset == CGPoint(x: 320, y: 80) && navigation.viewControllers.count == 2)

        // Sideways from the middle: the scroll view scrolls, nothing pops.
        synthesizer.advance(by: 1)
        letGoSlowly(swipe(to: 260, synthesizer, from: 160), synthesizer)
        #expect(navigation.viewControllers.count == 2 && scrollView.contentOffset == CGPoint(x: 240, y: 80))

        // Up the screen from the edge: the swipe fails and the scroll view scrolls.
        synthesizer.advance(by: 1)
        dragUp(at: 5)
        #expect(scrollView.contentOffset == CGPoint(x: 240, y: 160) && navigation.viewControllers.count == 2)

        // Sideways from the edge: the swipe pops, the scroll view stays.
        synthesizer.advance(by: 1)
        let finger = swipe(to: 205, synthesizer)
        #expect(scrollView.contentOffset == CGPoint(x: 240, y: 160) && c[1].view.frame.minX == 200)
        letGoSlowly(finger, synthesizer)
        #expect(scrollView.contentOffset == CGPoint(x: 240, y: 160) && navigation.viewControllers == [c[0]])
    }

    // MARK: The delegate's animators and the coordinator

    @Test func aDelegatesAnimatorRunsTheTransitionUntilItCompletes() throws {
        let log = CallLog()
        let (navigation, c, _, _) = stack(["a"], log: log)
        let delegate = NavigationLog(log: log)
        let animator = LoggingAnimator(log: log)
        delegate.animator = animator
        navigation.delegate = delegate
        let b = NavigationTracingController("b", log: log)
        navigation.pushViewController(b, animated: true)
        #expect(log.entries == [
            "willShow b", "animator for push a → b", "a viewWillDisappear", "b viewWillAppear",
            "animate a → b, incoming view in container true",
        ])
        #expect(navigation.transition != nil && navigation.viewControllers == [c[0], b])
        let context = try #require(animator.context)
        #expect(context.isAnimated && !context.isInteractive && context.finalFrame(for: b) == context.containerView.bounds)
        log.clear()
        context.completeTransition(true)
        expectEqual(log.entries, ["a viewDidDisappear", "b viewDidAppear", "animationEnded true", "didShow b"])
        context.completeTransition(true)
        expectEqual(log.entries.count, 4, "a second completion is ignored")
    }

    @Test func aDelegatesInteractionControllerDrivesItAndMayCancel() throws {
        let log = CallLog()
        let (navigation, c, _, _) = stack(["a", "b"], log: log)
        let delegate = NavigationLog(log: log)
        delegate.animator = LoggingAnimator(log: log)
        let interaction = LoggingInteraction(log: log)
        delegate.interaction = interaction
        navigation.delegate = delegate
        navigation.popViewController(animated: true)
        let context = try #require(interaction.context)
        expectEqual(log.entries.suffix(1), ["startInteractive, interactive true"])
        context.updateInteractiveTransition(0.3)
        context.cancelInteractiveTransition()
        #expect(context.transitionWasCancelled && !context.isInteractive)
        log.clear()
        context.completeTransition(false)
        expectEqual(log.entries, ["a viewWillDisappear", "a viewDidDisappear", "b viewWillAppear", "b viewDidAppear", "animationEnded false"])
        expectEqual(navigation.viewControllers, c)
    }

    @Test func theTransitionCoordinatorRunsBlocksAlongsideAndAfter() {
        let log = CallLog()
        final class Coordinated: UIViewController {
            var log: CallLog?
            override func viewWillAppear(_ animated: Bool) {
                let coordinator = transitionCoordinator
                log?.add("coordinator \(coordinator != nil), animated \(coordinator?.isAnimated ?? false)")
                coordinator?.animate(alongsideTransition: { [log] _ in log?.add("alongside") }, completion: { [log] context in
                    log?.add("completion, cancelled \(context.isCancelled)")
                })
            }
            override func viewDidAppear(_ animated: Bool) { log?.add("viewDidAppear") }
        }
        let (navigation, _, _, _) = stack(["a"])
        let pushed = Coordinated()
        pushed.log = log
        navigation.pushViewController(pushed, animated: true)
        expectEqual(log.entries, ["coordinator true, animated true", "alongside"])
        finishAnimations()
        expectEqual(log.entries, ["coordinator true, animated true", "alongside", "viewDidAppear", "completion, cancelled false"])
        #expect(pushed.transitionCoordinator == nil)
    }

    // MARK: Pictures

    @Test func aNavigationBarPicture() {
        let (navigation, c, _, _) = stack(["Settings", "Wi-Fi"])
        c[1].navigationItem.rightBarButtonItems = [
            UIBarButtonItem(barButtonSystemItem: .done, target: nil, action: nil),
            UIBarButtonItem(barButtonSystemItem: .add, target: nil, action: nil),
        ]
        navigation.view.layoutIfNeeded()
        expectMatchesReference(snapshot(navigation.navigationBar), named: "navigation-bar", tolerance: 3)
    }

    @Test func aBackSwipeHalfWayPicture() {
        let (navigation, c, _, synthesizer) = stack(["Inbox", "Message"], size: CGSize(width: 240, height: 320))
        for (controller, colour) in zip(c, [UIColor.systemTeal, .systemOrange]) {
            // Below the bar (its labels at a fixed y would be under it otherwise).
            controller.edgesForExtendedLayout = []
            controller.view.backgroundColor = colour
            let label = UILabel(frame: CGRect(x: 20, y: 20, width: 200, height: 30))
            label.text = controller.title
            controller.view.addSubview(label)
        }
        navigation.view.layoutIfNeeded()
        let finger = swipe(to: 125, synthesizer)
        expectEqual(c[1].view.frame.minX, 120, "half of 240 points")
        navigation.view.layoutIfNeeded()
        expectMatchesReference(snapshot(navigation.view), named: "navigation-back-swipe-half-way", tolerance: 3)
        synthesizer.touchUp(finger)
    }
}
