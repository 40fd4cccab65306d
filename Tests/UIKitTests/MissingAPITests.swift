import Testing
@testable import UIKit

/// API that real code used and that was missing, with UIKit's defaults.
@MainActor
@Suite struct MissingAPITests {
    @Test func insetByEdgeInsetsMovesEachEdge() {
        let rect = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(rect.inset(by: UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)) == CGRect(x: 12, y: 21, width: 94, height: 46))
        #expect(rect.inset(by: UIEdgeInsets(top: -5, left: -5, bottom: -5, right: -5)) == CGRect(x: 5, y: 15, width: 110, height: 60))
        #expect(rect.inset(by: .zero) == rect)
    }

    @Test func scrollIndicatorPropertiesHaveUIKitsDefaults() {
        let scrollView = UIScrollView(frame: .zero)
        #expect(scrollView.showsVerticalScrollIndicator)
        #expect(scrollView.showsHorizontalScrollIndicator)
        #expect(scrollView.indicatorStyle == .default)
        scrollView.showsVerticalScrollIndicator = false
        scrollView.indicatorStyle = .white
        #expect(!scrollView.showsVerticalScrollIndicator && scrollView.indicatorStyle == .white)
    }

    @Test func labelShadowDefaults() {
        let label = UILabel()
        #expect(label.shadowColor == nil)
        #expect(label.shadowOffset == CGSize(width: 0, height: -1))
    }

    @Test func buttonTitleShadowColourFollowsTheStateAndReachesTheLabel() {
        let button = UIButton(type: .custom)
        button.setTitle("Save", for: .normal)
        button.setTitleShadowColor(.black, for: .normal)
        button.setTitleShadowColor(.white, for: .highlighted)
        #expect(button.titleShadowColor(for: .normal) == .black)
        #expect(button.titleShadowColor(for: .disabled) == .black)  // falls back to normal
        #expect(button.currentTitleShadowColor == .black)
        button.isHighlighted = true
        #expect(button.currentTitleShadowColor == .white)
        #expect(button.titleLabel?.shadowColor == .white)
    }

    @Test func pinchAndRotationInheritUIGestureRecognizerDirectly() {
        #expect(_getSuperclass(UIPinchGestureRecognizer.self) == UIGestureRecognizer.self)
        #expect(_getSuperclass(UIRotationGestureRecognizer.self) == UIGestureRecognizer.self)
    }
}
