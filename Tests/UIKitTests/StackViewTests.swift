import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct StackViewTests {
    /// A window with a 300×100 horizontal stack at (0, 0) holding three views
    /// of intrinsic widths 40, 60 and 80 and heights 20, 30 and 40.
    private func makeStack(_ configure: (UIStackView) -> Void = { _ in }) -> (UIStackView, [SizedView]) {
        let window = makeWindow()
        let views = [SizedView(width: 40, height: 20), SizedView(width: 60, height: 30), SizedView(width: 80, height: 40)]
        let stack = UIStackView(arrangedSubviews: views)
        stack.frame = CGRect(x: 0, y: 0, width: 300, height: 100)
        configure(stack)
        window.addSubview(stack)
        stack.layoutIfNeeded()
        return (stack, views)
    }

    private func frames(_ views: [UIView]) -> [CGRect] {
        var result: [CGRect] = []
        for view in views { result.append(view.frame) }
        return result
    }

    @Test func arrangedViewsBecomeConstrainedSubviews() {
        let (stack, views) = makeStack()
        expectEqual(stack.subviews.count, 3)
        #expect(views.allSatisfy { !$0.translatesAutoresizingMaskIntoConstraints })
        #expect(stack.constraints.contains { $0.identifier == "UISV-spacing" })
        #expect(stack.constraints.contains { $0.identifier == "UISV-canvas-connection" })
    }

    /// Fill: the view that hugs least (the last at equal priorities here,
    /// made explicit) takes the room left.
    @Test func fillStretchesTheViewThatHugsLeast() {
        let (_, views) = makeStack { stack in
            stack.spacing = 10
            stack.arrangedSubviews[0].setContentHuggingPriority(UILayoutPriority(260), for: .horizontal)
            stack.arrangedSubviews[2].setContentHuggingPriority(UILayoutPriority(260), for: .horizontal)
        }
        #expect(frames(views) == [
            CGRect(x: 0, y: 0, width: 40, height: 100),
            CGRect(x: 50, y: 0, width: 160, height: 100),
            CGRect(x: 220, y: 0, width: 80, height: 100),
        ])
    }

    @Test func fillEquallyGivesEveryViewTheSameWidth() {
        let (_, views) = makeStack { stack in
            stack.distribution = .fillEqually
            stack.spacing = 15
        }
        #expect(frames(views) == [
            CGRect(x: 0, y: 0, width: 90, height: 100),
            CGRect(x: 105, y: 0, width: 90, height: 100),
            CGRect(x: 210, y: 0, width: 90, height: 100),
        ])
    }

    @Test func fillProportionallyFollowsTheIntrinsicWidths() {
        let (_, views) = makeStack { stack in
            stack.distribution = .fillProportionally
            stack.spacing = 30
        }
        // 240 points of views for 180 of intrinsic width: 40:60:80.
        #expect(areClose(frames(views), [
            CGRect(x: 0, y: 0, width: 240.0 * 40 / 180, height: 100).integralToThirds,
            CGRect(x: 240.0 * 40 / 180 + 30, y: 0, width: 80, height: 100).integralToThirds,
            CGRect(x: 300 - 240.0 * 80 / 180, y: 0, width: 240.0 * 80 / 180, height: 100).integralToThirds,
        ]))
    }

    @Test func equalSpacingSharesTheRoomBetweenTheViews() {
        let (_, views) = makeStack { stack in
            stack.distribution = .equalSpacing
            stack.alignment = .center
        }
        // 300 - 180 = 120 points of space, 60 in each gap.
        #expect(frames(views) == [
            CGRect(x: 0, y: 40, width: 40, height: 20),
            CGRect(x: 100, y: 35, width: 60, height: 30),
            CGRect(x: 220, y: 30, width: 80, height: 40),
        ])
    }

    @Test func equalCenteringSpacesTheCentres() {
        let (_, views) = makeStack { stack in
            stack.distribution = .equalCentering
            stack.alignment = .top
        }
        // Centres at 20 and 260; the middle one's at 140.
        #expect(frames(views) == [
            CGRect(x: 0, y: 0, width: 40, height: 20),
            CGRect(x: 110, y: 0, width: 60, height: 30),
            CGRect(x: 220, y: 0, width: 80, height: 40),
        ])
    }

    @Test func alignmentsPlaceViewsAcrossTheAxis() {
        let (_, bottom) = makeStack { stack in
            stack.alignment = .bottom
            stack.distribution = .equalSpacing
        }
        #expect(bottom[0].frame.maxY == 100 && bottom[1].frame.maxY == 100 && bottom[0].frame.height == 20)
        let (_, leading) = makeStack { stack in
            stack.axis = .vertical
            stack.alignment = .leading
            stack.distribution = .equalSpacing
        }
        #expect(frames(leading) == [
            CGRect(x: 0, y: 0, width: 40, height: 20),
            CGRect(x: 0, y: 25, width: 60, height: 30),
            CGRect(x: 0, y: 60, width: 80, height: 40),
        ])
    }

    /// As UIKit: a hidden arranged view gets no length along the axis, where
    /// the views before it end, and one spacing goes with it.
    @Test func hiddenViewsCollapseAndTheirSpacingGoes() {
        let (stack, views) = makeStack { stack in
            stack.distribution = .fillEqually
            stack.spacing = 10
        }
        views[1].isHidden = true
        stack.layoutIfNeeded()
        expectEqual(views[0].frame, CGRect(x: 0, y: 0, width: 145, height: 100))
        expectEqual(views[1].frame, CGRect(x: 145, y: 0, width: 0, height: 100))
        expectEqual(views[2].frame, CGRect(x: 155, y: 0, width: 145, height: 100))
        #expect(views[1].constraints.contains { $0.identifier == "UISV-hiding" })  // a one-view constraint lives in the view
        // The first view hidden: it sits at the leading edge, and no spacing comes before the second.
        views[1].isHidden = false
        views[0].isHidden = true
        stack.layoutIfNeeded()
        expectEqual(views[0].frame, CGRect(x: 0, y: 0, width: 0, height: 100))
        expectEqual(views[1].frame, CGRect(x: 0, y: 0, width: 145, height: 100))
        views[0].isHidden = false
        views[1].isHidden = false
        stack.layoutIfNeeded()
        #expect(areClose([views[2].frame], [CGRect(x: 300 - 280.0 / 3, y: 0, width: 280.0 / 3, height: 100)]))
    }

    @Test func customSpacingAndMarginsChangeTheGaps() {
        let (stack, views) = makeStack { stack in
            stack.distribution = .fillEqually
            stack.isLayoutMarginsRelativeArrangement = true
            stack.layoutMargins = UIEdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        }
        stack.setCustomSpacing(40, after: views[0])
        stack.layoutIfNeeded()
        #expect(frames(views) == [
            CGRect(x: 10, y: 10, width: 80, height: 80),
            CGRect(x: 130, y: 10, width: 80, height: 80),
            CGRect(x: 210, y: 10, width: 80, height: 80),
        ])
        expectEqual(stack.customSpacing(after: views[1]), UIStackView.spacingUseDefault)
    }

    @Test func removingAnArrangedViewKeepsItAsASubview() {
        let (stack, views) = makeStack { $0.distribution = .fillEqually }
        stack.removeArrangedSubview(views[0])
        stack.layoutIfNeeded()
        expectEqual(stack.arrangedSubviews.count, 2)
        #expect(views[0].superview === stack)
        expectEqual(views[1].frame, CGRect(x: 0, y: 0, width: 150, height: 100))
        views[2].removeFromSuperview()
        stack.layoutIfNeeded()
        expectEqual(stack.arrangedSubviews.count, 1)
        expectEqual(views[1].frame, CGRect(x: 0, y: 0, width: 300, height: 100))
    }

    /// A stack with nothing holding its size takes its views' size.
    @Test func aStackSizesItselfToItsViews() {
        let window = makeWindow()
        let stack = UIStackView(arrangedSubviews: [SizedView(width: 40, height: 20), SizedView(width: 60, height: 30)])
        stack.axis = .vertical
        stack.spacing = 5
        stack.alignment = .leading
        stack.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
            stack.topAnchor.constraint(equalTo: window.topAnchor, constant: 10),
        ])
        window.layoutIfNeeded()
        expectEqual(stack.frame, CGRect(x: 10, y: 10, width: 60, height: 55))
    }
}

@MainActor
@Suite struct VisualFormatTests {
    @Test func aRowWithStandardSpacingAndEqualWidths() {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
        window.addSubview(container)
        let a = UIView()
        let b = UIView()
        for view in [a, b] {
            view.translatesAutoresizingMaskIntoConstraints = false
            container.addSubview(view)
        }
        let views: [String: Any] = ["a": a, "b": b]
        NSLayoutConstraint.activate(
            NSLayoutConstraint.constraints(withVisualFormat: "H:|-[a]-[b(==a)]-|", options: [.alignAllTop, .alignAllBottom], metrics: nil, views: views)
            + NSLayoutConstraint.constraints(withVisualFormat: "V:|-top-[a(>=44@750,<=height)]", options: [], metrics: ["top": 10, "height": 30.0], views: views))
        container.layoutIfNeeded()
        // 300 - 20 - 8 - 20 = 252 for two views.
        expectEqual(a.frame, CGRect(x: 20, y: 10, width: 126, height: 30))
        expectEqual(b.frame, CGRect(x: 154, y: 10, width: 126, height: 30))
    }

    @Test func flushAndExplicitConnections() {
        let window = makeWindow()
        let a = UIView()
        let b = UIView()
        for view in [a, b] {
            view.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(view)
        }
        let constraints = NSLayoutConstraint.constraints(withVisualFormat: "|[a(50)][b(>=25)]-(12)-|", options: [], metrics: nil, views: ["a": a, "b": b])
        expectEqual(constraints.count, 5)
        #expect(constraints.contains { $0.firstAttribute == .leading && $0.constant == 0 && $0.secondItem === window })
        #expect(constraints.contains { $0.firstItem === window && $0.firstAttribute == .trailing && $0.constant == 12 })
        #expect(constraints.contains { $0.firstItem === b && $0.relation == .greaterThanOrEqual && $0.constant == 25 })
    }

    @Test func malformedFormatsAreReportedWithThePosition() {
        let window = makeWindow()
        let a = UIView()
        window.addSubview(a)
        for format in ["H:|-[a", "H:[missing]", "X:[a]", "H:[a(==nowhere)]", "H:[a(>=10@2000)]"] {
            #expect(NSLayoutConstraint.constraints(withVisualFormat: format, options: [], metrics: nil, views: ["a": a]).isEmpty)
        }
        let problems = layoutProblems()
        expectEqual(problems.count, 5)
        #expect(problems.allSatisfy { $0.hasPrefix("Unable to parse constraint format:") })
        #expect(problems[1].contains("missing is not a key in the views dictionary"))
    }
}

/// Whether the rectangles match to within round-off.
func areClose(_ a: [CGRect], _ b: [CGRect]) -> Bool {
    guard a.count == b.count else { return false }
    for (left, right) in zip(a, b) {
        for (x, y) in [(left.minX, right.minX), (left.minY, right.minY), (left.width, right.width), (left.height, right.height)]
            where abs(x - y) > 1e-9 {
            return false
        }
    }
    return true
}

extension CGRect {
    /// The rectangle with its edges rounded to thirds of a point, as the
    /// engine rounds frames to the pixels of a 3× screen.
    var integralToThirds: CGRect {
        let left = (minX * 3).rounded() / 3
        let right = (maxX * 3).rounded() / 3
        let top = (minY * 3).rounded() / 3
        let bottom = (maxY * 3).rounded() / 3
        return CGRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
