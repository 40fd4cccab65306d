import DrawingTestSupport
import TestExpectations
import Testing
@testable import UIKit

// UITabBarController: its tabs as children, switching by tapping the bar
// (through the delegate), switching in code, and a picture of the bar.

@MainActor
private final class TabDelegate: UITabBarControllerDelegate {
    let log: CallLog
    var refused: UIViewController?
    init(log: CallLog) { self.log = log }

    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool {
        log.add("should \(viewController.title!)")
        return viewController !== refused
    }

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        log.add("did \(viewController.title!)")
    }
}

@MainActor
@Suite struct TabBarControllerTests {
    /// A tab bar controller of three tabs filling a 320 × 568 window.
    private func tabs() -> (UITabBarController, [UIViewController], UIWindow, TouchSynthesizer) {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 568))
        let children = ["Home", "Search", "Settings"].map { title -> UIViewController in
            let child = UIViewController()
            child.title = title
            return child
        }
        children[0].tabBarItem = UITabBarItem(title: "Home", image: UIImage(systemName: "house"), selectedImage: UIImage(systemName: "house.fill"))
        children[1].tabBarItem.image = UIImage(systemName: "magnifyingglass")
        children[2].tabBarItem.image = UIImage(systemName: "gearshape")
        let controller = UITabBarController()
        controller.viewControllers = children
        window.rootViewController = controller
        controller.view.layoutIfNeeded()
        return (controller, children, window, TouchSynthesizer(window: window))
    }

    private func centre(of item: UITabBarItem, in controller: UITabBarController, window: UIWindow) -> CGPoint {
        let button = controller.tabBar.button(for: item)!
        let frame = button.convert(button.bounds, to: window)
        return CGPoint(x: frame.midX, y: frame.midY)
    }

    @Test func theTabsAreChildrenAndTheFirstIsShownUnderTheBar() {
        let (controller, children, window, _) = tabs()
        #expect(controller.children.count == 3 && children.allSatisfy { $0.parent === controller })
        #expect(controller.selectedIndex == 0 && controller.selectedViewController === children[0])
        #expect(children[0].view.superview === controller.view && children[1].viewIfLoaded?.superview == nil)
        // No safe area here: the bar is its items' 49 points, and the tab's
        // view reaches under it (translucent), its safe area ending above it.
        expectEqual(controller.tabBar.frame, CGRect(x: 0, y: 568 - 49, width: 320, height: 49))
        expectEqual(children[0].view.frame, CGRect(x: 0, y: 0, width: 320, height: 568))
        #expect(children[0].view.window === window && children[0].view.safeAreaInsets == UIEdgeInsets(top: 0, left: 0, bottom: 49, right: 0))
        expectEqual(children[2].tabBarItem.title, "Settings", "the item's title comes from the controller's")
        #expect(children[1].tabBarController === controller)
    }

    @Test func tappingATabAsksTheDelegateThenSwitches() {
        let (controller, children, window, synthesizer) = tabs()
        let log = CallLog()
        let delegate = TabDelegate(log: log)
        controller.delegate = delegate
        let finger = synthesizer.touchDown(at: centre(of: children[2].tabBarItem, in: controller, window: window))
        #expect(log.entries.isEmpty && controller.selectedIndex == 0, "not on touch down")
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["should Settings", "did Settings"])
        #expect(controller.selectedIndex == 2 && controller.tabBar.selectedItem === children[2].tabBarItem)
        #expect(children[2].view.superview === controller.view && children[0].view.superview == nil)
        delegate.refused = children[1]
        synthesizer.advance(by: 1)
        synthesizer.tap(at: centre(of: children[1].tabBarItem, in: controller, window: window))
        #expect(log.entries.suffix(1) == ["should Search"] && controller.selectedIndex == 2, "refused")
        children[0].tabBarItem.isEnabled = false
        synthesizer.advance(by: 1)
        synthesizer.tap(at: centre(of: children[0].tabBarItem, in: controller, window: window))
        #expect(log.entries.count == 3 && controller.selectedIndex == 2, "a disabled item is not tapped")
    }

    @Test func choosingInCodeTellsNothingAndRefusesStrangers() {
        let (controller, children, _, _) = tabs()
        let log = CallLog()
        let delegate = TabDelegate(log: log)
        controller.delegate = delegate
        controller.selectedIndex = 1
        #expect(controller.selectedViewController === children[1] && log.entries.isEmpty)
        controller.selectedIndex = 7
        controller.selectedViewController = UIViewController()
        expectEqual(controller.selectedIndex, 1)
        controller.selectedViewController = children[2]
        #expect(controller.selectedIndex == 2 && children[2].view.superview === controller.view)
        controller.viewControllers = [children[0]]
        #expect(controller.selectedIndex == 0 && children[1].parent == nil && children[2].viewIfLoaded?.superview == nil)
    }

    /// Over a 34-point bottom inset (an iPhone's home indicator), the bar is
    /// 83 points: its items in the top 49.
    @Test func aTabBarPicture() {
        let (controller, _, window, _) = tabs()
        UIScreen.main.bounds = window.frame
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 0, left: 0, bottom: 34, right: 0)
        controller.selectedIndex = 1
        controller.view.layoutIfNeeded()
        let bar = controller.tabBar
        expectEqual(bar.frame.height, 83)
        expectMatchesReference(snapshot(bar), named: "tab-bar", tolerance: 3)
    }
}
