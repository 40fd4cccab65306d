import UIKit

/// Screen transitions on a 390×844 pt iPhone screen at scale 3 (1170×2532
/// pixels, safe area 47 pt at the top and 34 at the bottom), one display
/// refresh at 60 Hz per frame on the manual clock, each frame the refresh
/// (the animations' presentation values committed) and the composite of
/// its damage, as in `AnimatedScenes.swift`:
///
/// - a push: a navigation controller (its bar titled) shows a screen of 16
///   rows (44 pt, an icon with rounded corners, a label, a separator) and
///   pushes a new one like it, animated (the 0.35 s slide, the outgoing
///   screen moving a third of the way under a shadow);
/// - a page sheet: the navigation controller presents such a screen with
///   the default style, animated (the 0.5 s slide up, the presenter
///   scaled back with rounded corners and dimmed).
///
/// Each transition gets a new controller, as an app's would, so its first
/// frame loads and lays out the view and draws its labels' text. Between
/// transitions (not timed) the pushed screen is popped and the sheet
/// dismissed without animation.
@MainActor
final class TransitionScene {
    static let frameInterval: TimeInterval = 1.0 / 60
    let window: UIWindow
    let compositor: LayerCompositor
    let navigation: UINavigationController
    private var screens = 0

    init() throws {
        let application = UIApplication.shared
        application.resetForTesting()
        application.runLoop.useManualClock()
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        UIScreen.main.scale = 3
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        window = UIWindow(frame: UIScreen.main.bounds)
        window.backgroundColor = .black
        navigation = UINavigationController(rootViewController: RowsScreen(number: 0))
        window.rootViewController = navigation
        window.makeKeyAndVisible()
        application.runLoop.runUntilIdle()
        compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 1170, pixelHeight: 2532, scale: 3)
        compositor.backgroundColor = UIColor.black.cgColor
        compositor.renderFrame()
    }

    /// How many refreshes a transition of `duration` takes to end.
    static func frames(for duration: TimeInterval) -> Int { Int((duration / frameInterval).rounded(.up)) + 1 }
    static let pushFrames = frames(for: NavigationMetrics.transitionDuration)
    static let sheetFrames = frames(for: ModalTransitionMetrics.slideDuration)

    /// One refresh later: commit and composite.
    func frame() -> [CGRect] {
        UIApplication.shared.runLoop.advance(by: Self.frameInterval)
        return compositor.renderFrame()
    }

    private func nextScreen() -> RowsScreen {
        screens += 1
        return RowsScreen(number: screens)
    }

    /// Starts a push of a new screen (its frames are `frame()`s).
    func startPush() {
        navigation.pushViewController(nextScreen(), animated: true)
    }

    /// Starts presenting a new screen as a page sheet.
    func startSheet() {
        navigation.present(nextScreen(), animated: true)
    }

    /// Whether the last transition has ended: nothing on screen animating.
    var transitionEnded: Bool {
        func animating(_ layer: CALayer) -> Bool {
            layer.animationKeys() != nil || (layer.sublayers ?? []).contains(where: animating)
        }
        return !animating(window.layer)
    }

    /// Back to the root screen, nothing presented, drawn (not timed).
    func reset() {
        if navigation.presentedViewController != nil { navigation.dismiss(animated: false) }
        if navigation.viewControllers.count > 1 { navigation.popToRootViewController(animated: false) }
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
    }
}

/// A screen of 16 rows, titled, in a navigation controller or a sheet.
@MainActor
final class RowsScreen: UIViewController {
    let number: Int

    init(number: Int) {
        self.number = number
        super.init(nibName: nil, bundle: nil)
        title = "Screen \(number)"
    }

    required init?(coder: NSCoder) { fatalError("not used") }

    override func viewDidLoad() {
        view.backgroundColor = .white
        for row in 0..<16 {
            let cell = UIView(frame: CGRect(x: 0, y: 100 + row * 44, width: 390, height: 44))
            let icon = UIView(frame: CGRect(x: 16, y: 7, width: 30, height: 30))
            icon.backgroundColor = palette[(row + number) % 6]
            icon.layer.cornerRadius = 7
            cell.addSubview(icon)
            let label = UILabel(frame: CGRect(x: 62, y: 0, width: 300, height: 43.5))
            label.text = "Row \(row) of screen \(number)"
            cell.addSubview(label)
            let separator = UIView(frame: CGRect(x: 62, y: 43.5, width: 328, height: 0.5))
            separator.backgroundColor = .lightGray
            cell.addSubview(separator)
            view.addSubview(cell)
        }
    }
}
