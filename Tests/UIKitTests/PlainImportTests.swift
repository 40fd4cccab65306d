import TestExpectations
import Testing
import UIKit

/// User code imports UIKit plainly (not `@testable`) next to Swift Testing,
/// and sees only the public API.
@MainActor
@Suite struct PlainImportTests {
    @Test func publicAPIDrivesATapFromAPlainImport() {
        UIApplication.shared.resetForTesting()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.makeKeyAndVisible()
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 10, y: 10, width: 50, height: 30)
        var taps = 0
        button.addAction(UIAction { _ in taps += 1 }, for: .touchUpInside)
        window.addSubview(button)
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 20, y: 20))
        expectEqual(taps, 1)
    }
}
