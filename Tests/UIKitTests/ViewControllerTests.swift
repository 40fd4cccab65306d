import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct ViewControllerTests {
    final class TracingController: UIViewController {
        var log: CallLog?
        var name = ""
        override func loadView() { log?.add("\(name) loadView"); super.loadView() }
        override func viewDidLoad() { log?.add("\(name) viewDidLoad") }
        override func viewWillAppear(_ animated: Bool) { log?.add("\(name) viewWillAppear") }
        override func viewDidAppear(_ animated: Bool) { log?.add("\(name) viewDidAppear") }
        override func viewWillDisappear(_ animated: Bool) { log?.add("\(name) viewWillDisappear") }
        override func viewDidDisappear(_ animated: Bool) { log?.add("\(name) viewDidDisappear") }
        override func willMove(toParent parent: UIViewController?) { log?.add("\(name) willMoveToParent \(parent == nil ? "nil" : "parent")") }
        override func didMove(toParent parent: UIViewController?) { log?.add("\(name) didMoveToParent \(parent == nil ? "nil" : "parent")") }
    }

    private func controller(_ name: String, _ log: CallLog) -> TracingController {
        let c = TracingController()
        c.name = name
        c.log = log
        return c
    }

    @Test func viewLoadsOnceOnFirstUse() {
        let log = CallLog()
        let c = controller("c", log)
        #expect(!c.isViewLoaded)
        #expect(c.viewIfLoaded == nil)
        let view = c.view
        #expect(c.view === view)
        expectEqual(log.entries, ["c loadView", "c viewDidLoad"])
        #expect(view?.next === c)
    }

    @Test func appearanceFollowsTheViewInAndOutOfTheWindow() {
        let window = makeWindow()
        let log = CallLog()
        let root = controller("root", log)
        window.rootViewController = root
        expectEqual(log.entries, ["root loadView", "root viewDidLoad", "root viewWillAppear", "root viewDidAppear"])
        expectEqual(root.view.frame, window.bounds)
        log.clear()
        window.rootViewController = nil
        expectEqual(log.entries, ["root viewWillDisappear", "root viewDidDisappear"])
    }

    @Test func childContainment() {
        let window = makeWindow()
        let log = CallLog()
        let parent = controller("parent", log)
        window.rootViewController = parent
        let child = controller("child", log)
        log.clear()
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(log.entries == ["child willMoveToParent parent", "child loadView", "child viewDidLoad",
                                "child viewWillAppear", "child viewDidAppear", "child didMoveToParent parent"])
        expectEqual(parent.children, [child])
        #expect(child.parent === parent)
        log.clear()
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        expectEqual(log.entries, ["child willMoveToParent nil", "child viewWillDisappear", "child viewDidDisappear", "child didMoveToParent nil"])
        #expect(parent.children.isEmpty)
        #expect(child.parent == nil)
    }

    @Test func presentAndDismiss() {
        let window = makeWindow()
        let log = CallLog()
        let root = controller("root", log)
        window.rootViewController = root
        let presented = controller("presented", log)
        log.clear()
        var completed = 0
        root.present(presented, animated: false) { completed += 1 }
        expectEqual(completed, 1)
        expectEqual(log.entries, ["presented loadView", "presented viewDidLoad", "presented viewWillAppear", "presented viewDidAppear"])
        #expect(root.presentedViewController === presented)
        #expect(presented.presentingViewController === root)
        // The default style, a page sheet: the view is in the sheet's card,
        // in a UITransitionView over the whole window.
        let container = presented.view.superview?.superview
        #expect(container is UITransitionView)
        expectEqual(container?.frame, window.bounds)
        #expect(window.subviews.last === container)

        // A second presentation from the same controller is refused.
        root.present(UIViewController(), animated: false)
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), [.presentation])

        // A child of the presented controller knows who presented its ancestor.
        let child = UIViewController()
        presented.addChild(child)
        #expect(child.presentingViewController === root)

        log.clear()
        presented.dismiss(animated: false) { completed += 1 }
        expectEqual(completed, 2)
        expectEqual(log.entries, ["presented viewWillDisappear", "presented viewDidDisappear"])
        #expect(root.presentedViewController == nil)
        #expect(presented.presentingViewController == nil)
        #expect(container?.superview == nil)
    }

    @Test func dismissingTakesDownEverythingPresentedAbove() {
        let window = makeWindow()
        let root = UIViewController()
        window.rootViewController = root
        let first = UIViewController(), second = UIViewController()
        root.present(first, animated: false)
        first.present(second, animated: false)
        expectEqual(window.subviews.count, 3)
        root.dismiss(animated: false)
        expectEqual(window.subviews.count, 1)
        #expect(first.presentedViewController == nil)
        #expect(root.presentedViewController == nil)
    }

    @Test func presentingFromOutsideAWindowIsRefused() {
        _ = makeWindow()
        let loose = UIViewController()
        loose.present(UIViewController(), animated: false)
        #expect(loose.presentedViewController == nil)
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), [.presentation])
    }

    @Test func applicationNextIsItsDelegateOnlyWhenThatIsAPlainResponder() {
        _ = makeWindow()
        let application = UIApplication.shared
        final class PlainDelegate: UIApplicationDelegate {}
        final class ResponderDelegate: UIResponder, UIApplicationDelegate {}
        final class ViewDelegate: UIView, UIApplicationDelegate {}
        let plain = PlainDelegate()
        application.delegate = plain
        #expect(application.next == nil)
        let responder = ResponderDelegate()
        application.delegate = responder
        #expect(application.next === responder)
        let view = ViewDelegate()
        application.delegate = view
        #expect(application.next == nil)
        #expect(responder.next == nil)
    }
}
