#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// The demo `openuikit demo` runs: an app written as an iOS developer
/// writes one, with four tabs: controls, a 1,000-row list in a navigation
/// controller (a tapped row pushes a detail screen), a canvas to draw on,
/// and a card to pan, pinch, rotate and long-press.
///
/// Every action it takes is printed on a line of its own (`button tapped
/// 1`, `switch on`, `list dragging from -44`, `list offset 120`), so that
/// tests and curious people can follow what the touches did.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let tabs = UITabBarController()
        tabs.viewControllers = [
            ControlsViewController(),
            ListViewController.inNavigationController(),
            CanvasViewController(),
            CardViewController(),
        ]
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        self.window = window
        say("demo ready")
        return true
    }

    func applicationWillTerminate(_ application: UIApplication) { say("demo ends") }
}

/// One line on standard output, written at once.
func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

/// To one decimal, whole numbers without a fraction.
func describe(_ value: CGFloat) -> String {
    let tenths = (value * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(Double(tenths))
}
