import TestExpectations
import Testing
@testable import UIKit

/// API that real code used and that was missing, with UIKit's defaults.
@MainActor
@Suite struct MissingAPITests {
    @Test func insetByEdgeInsetsMovesEachEdge() {
        let rect = CGRect(x: 10, y: 20, width: 100, height: 50)
        expectEqual(rect.inset(by: UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)), CGRect(x: 12, y: 21, width: 94, height: 46))
        expectEqual(rect.inset(by: UIEdgeInsets(top: -5, left: -5, bottom: -5, right: -5)), CGRect(x: 5, y: 15, width: 110, height: 60))
        expectEqual(rect.inset(by: .zero), rect)
    }

    @Test func scrollIndicatorPropertiesHaveUIKitsDefaults() {
        let scrollView = UIScrollView(frame: .zero)
        #expect(scrollView.showsVerticalScrollIndicator)
        #expect(scrollView.showsHorizontalScrollIndicator)
        expectEqual(scrollView.indicatorStyle, .default)
        scrollView.showsVerticalScrollIndicator = false
        scrollView.indicatorStyle = .white
        #expect(!scrollView.showsVerticalScrollIndicator && scrollView.indicatorStyle == .white)
    }

    @Test func labelShadowDefaults() {
        let label = UILabel()
        #expect(label.shadowColor == nil)
        expectEqual(label.shadowOffset, CGSize(width: 0, height: -1))
    }

    @Test func buttonTitleShadowColourFollowsTheStateAndReachesTheLabel() {
        let button = UIButton(type: .custom)
        button.setTitle("Save", for: .normal)
        button.setTitleShadowColor(.black, for: .normal)
        button.setTitleShadowColor(.white, for: .highlighted)
        expectEqual(button.titleShadowColor(for: .normal), .black)
        expectEqual(button.titleShadowColor(for: .disabled), .black)  // falls back to normal
        expectEqual(button.currentTitleShadowColor, .black)
        button.isHighlighted = true
        expectEqual(button.currentTitleShadowColor, .white)
        expectEqual(button.titleLabel?.shadowColor, .white)
    }

    @Test func pinchAndRotationInheritUIGestureRecognizerDirectly() {
        #expect(_getSuperclass(UIPinchGestureRecognizer.self) == UIGestureRecognizer.self)
        #expect(_getSuperclass(UIRotationGestureRecognizer.self) == UIGestureRecognizer.self)
    }
}

/// An action method taking the sender and the event, as `tapped(_:forEvent:)`.
@MainActor
@Suite struct SenderAndEventActionTests {
    @MainActor final class Screen {
        var received: [(sender: UIControl, eventType: UIEvent.EventType?)] = []
        func tapped(_ sender: UIControl, _ event: UIEvent?) { received.append((sender, event?.type)) }
    }

    @Test func anActionTakingTheEventGetsTheTouchEvent() {
        let window = makeWindow()
        let control = UIControl(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(control)
        let screen = Screen()
        control.addTarget(screen, action: Screen.tapped, for: .touchUpInside)
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 50, y: 50))
        expectEqual(screen.received.count, 1)
        #expect(screen.received.first?.sender === control)
        expectEqual(screen.received.first?.eventType, .touches)
        control.sendActions(for: .touchUpInside)  // sent without an event
        expectEqual(screen.received.count, 2)
        #expect(screen.received.last?.eventType == nil)
    }
}
