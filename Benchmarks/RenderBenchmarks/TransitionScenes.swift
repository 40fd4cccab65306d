#if canImport(Glibc)
import Glibc
#endif
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
///   scaled back with rounded corners and dimmed);
/// - a flip: a 300×400 pt card with rounded corners and a label, in the
///   middle of the root screen, turns over from the left into a new
///   colour and label (`UIView.transition(with:duration:options:)`,
///   0.5 s, drawn in perspective: QuartzCore's `FlipProjection`).
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
    static let flipDuration: TimeInterval = 0.5
    static let flipFrames = frames(for: flipDuration)

    /// One refresh later: commit and composite.
    func frame() -> [CGRect] {
        UIApplication.shared.runLoop.advance(by: Self.frameInterval)
        return compositor.renderFrame()
    }

    /// One refresh later, its two parts timed apart: the refresh (the
    /// run loop's turn: animations, layout, text, the commit) and the
    /// composite, in seconds, with the page faults the frame took.
    func timedFrame() -> (refresh: Double, composite: Double, faults: Int) {
        let faultsBefore = minorFaults()
        let start = now()
        UIApplication.shared.runLoop.advance(by: Self.frameInterval)
        let refreshed = now()
        _ = compositor.renderFrame()
        let end = now()
        return (refreshed - start, end - refreshed, minorFaults() - faultsBefore)
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

    /// The card that flips, made at the first flip (the push and the sheet
    /// are measured without it), and how many flips it has made.
    private var card: UIView?
    private var flips = 0

    /// Starts a flip of the card from the left, into a new colour and label.
    func startFlip() {
        let card = self.card ?? makeCard()
        flips += 1
        let label = card.subviews[0] as! UILabel
        let flips = flips
        UIView.transition(with: card, duration: Self.flipDuration, options: [.transitionFlipFromLeft]) {
            card.backgroundColor = palette[flips % 6]
            label.text = "Card \(flips)"
        }
    }

    private func makeCard() -> UIView {
        let card = UIView(frame: CGRect(x: 45, y: 222, width: 300, height: 400))
        card.backgroundColor = palette[0]
        card.layer.cornerRadius = 16
        let label = UILabel(frame: card.bounds.insetBy(dx: 20, dy: 20))
        label.textAlignment = .center
        label.text = "Card 0"
        card.addSubview(label)
        navigation.viewControllers[0].view.addSubview(card)
        self.card = card
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
        return card
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

/// The page faults the process has taken so far (first touches of fresh memory).
func minorFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt + usage.ru_majflt
}
