import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// `transitionCurlUp` rolls the old look up off the view from its bottom
/// edge round a cylinder (QuartzCore's PageCurl: radius a tenth of the
/// view's height; the curl line goes from the bottom edge to a radius above
/// the top), showing the page's back mirrored and seen through paper (60 %
/// white), the new look under it; `transitionCurlDown` is the same played
/// backward with the looks exchanged.
@MainActor
@Suite struct PageCurlTests {
    private func advance(_ seconds: TimeInterval) { UIApplication.shared.runLoop.advance(by: seconds) }
    private var shownTime: TimeInterval { AnimationEngine.current.frameTime }
    private func isBlue(_ p: [UInt8]) -> Bool { p[2] == 255 && p[0] == 0 && p[1] == 0 && p[3] == 255 }
    private func isGreen(_ p: [UInt8]) -> Bool { p[1] == 255 && p[0] == 0 && p[2] == 0 && p[3] == 255 }
    /// Blue seen on the page's back: 60 % white over it (153, 153, 255), ±1.
    private func isBlueBack(_ p: [UInt8]) -> Bool { abs(Int(p[0]) - 153) <= 1 && abs(Int(p[1]) - 153) <= 1 && p[2] == 255 }

    /// Advances refresh by refresh (60 Hz) until `transition` has run for
    /// `progress` seconds, which falls on a refresh exactly.
    private func advance(refreshesUntil progress: TimeInterval, of transition: CATransition,
                         sourceLocation: SourceLocation = #_sourceLocation) {
        while shownTime - transition.beginTime < progress - 1e-9 { advance(1.0 / 60) }
        let shown = shownTime - transition.beginTime
        #expect(abs(shown - progress) < 1e-9, "\(shown)", sourceLocation: sourceLocation)
    }

    /// A 120 × 160 white window, a 100 × 140 blue view at (10, 10) with an
    /// orange square in its bottom left corner, curling to green in 1 s.
    private func curlScene(_ option: UIView.AnimationOptions) -> (UIWindow, UIView, CATransition) {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 160))
        _ = UIApplication.shared.runLoop.useManualClock()
        window.backgroundColor = .white
        let page = UIView(frame: CGRect(x: 10, y: 10, width: 100, height: 140))
        page.backgroundColor = .blue
        let corner = UIView(frame: CGRect(x: 5, y: 105, width: 35, height: 30))
        corner.backgroundColor = .orange
        page.addSubview(corner)
        window.addSubview(page)
        UIApplication.shared.runLoop.runUntilIdle()
        UIView.transition(with: page, duration: 1, options: [option, .curveLinear]) {
            page.backgroundColor = .green
            corner.isHidden = true
        }
        let transition = page.layer.animation(forKey: "transition") as? CATransition
        return (window, page, transition!)
    }

    @Test func aCurlUpRollsTheOldLookUpFromTheBottomEdgeShowingItsBack() {
        let (window, _, transition) = curlScene(.transitionCurlUp)
        advance(refreshesUntil: 0.5, of: transition)
        // Half way: r = 14, the curl line at 140 − 0.5·154 = 63 in the view;
        // 77 points rolled, 44 of them (π·r) round the cylinder, so the
        // page's back lies flat from y 30 to 63 and round the roll to 77.
        let image = snapshot(of: window)
        func at(_ x: Int, _ y: Int) -> [UInt8] { rgba(image, 2 * (10 + x), 2 * (10 + y)) }
        #expect(isBlue(at(70, 20)), "the page, flat, above its back")
        #expect(isBlueBack(at(70, 40)) && isBlueBack(at(70, 60)), "\(at(70, 40)) \(at(70, 60))")
        // The back of the bottom left corner comes over on the left: page y
        // 63 + 44 + (63 − 40) = 130 is seen at y 40.
        let orangeBack = at(20, 40)
        #expect(orangeBack[0] > 240 && orangeBack[1] > 180 && orangeBack[2] > 140 && orangeBack[2] < 160, "\(orangeBack)")
        #expect(isGreen(at(70, 100)) && isGreen(at(20, 130)), "the new look uncovered")
        let shadow = at(70, 79)
        #expect(shadow[1] < 240 && shadow[1] > 150 && shadow[0] == 0, "the roll's shadow: \(shadow)")
        expectMatchesReference(image, named: "page-curl-up-half-way", tolerance: 2)
    }

    @Test func theCurlLineClimbsFrameByFrame() {
        let (window, _, transition) = curlScene(.transitionCurlUp)
        // Each few refreshes: below the roll (line + 1.5 r) the new look,
        // above the page's back (line − (rolled − π r)) the old one, flat.
        for _ in 0..<6 {
            advance(8.0 / 60)
            let p = shownTime - transition.beginTime
            guard p < 1 else { break }
            let r = 14.0, line = 140 - p * 154, rolled = 140 - line
            let image = snapshot(of: window)
            let below = Int((line + 1.5 * r).rounded(.up)) + 1
            if below < 140 { #expect(isGreen(rgba(image, 2 * 80, 2 * (10 + below))), "at \(p): green from \(below)") }
            let above = Int((line - max(0, rolled - .pi * r)).rounded(.down)) - 1
            if above > 0 { #expect(isBlue(rgba(image, 2 * 80, 2 * (10 + above))), "at \(p): the page flat above \(above)") }
        }
    }

    @Test func aCurlDownUnrollsTheNewLookOverTheOldFromTheTop() {
        let (window, _, transition) = curlScene(.transitionCurlDown)
        advance(refreshesUntil: 0.25, of: transition)
        // A quarter: rolled 0.75, the line at 140 − 0.75·154 = 24.5, the
        // new look's page flat above it; below the roll, the old look.
        let image = snapshot(of: window)
        expectEqual(isGreen(rgba(image, 2 * 80, 2 * (10 + 2))), false, "the page's back, over its flat part near the top")
        #expect(isBlue(rgba(image, 2 * 80, 2 * (10 + 60))) && isBlue(rgba(image, 2 * 80, 2 * (10 + 100))), "the old look under")
        advance(1)
        let end = snapshot(of: window)
        #expect(isGreen(rgba(end, 2 * 80, 2 * (10 + 2))) && isGreen(rgba(end, 2 * 80, 2 * (10 + 130))))
    }
}
