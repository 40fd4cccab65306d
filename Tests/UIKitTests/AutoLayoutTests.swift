import TestExpectations
import Testing
@testable import UIKit

/// A view whose intrinsic size the test sets.
@MainActor
final class SizedView: UIView {
    var size = CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) {
        didSet { invalidateIntrinsicContentSize() }
    }

    convenience init(width: CGFloat, height: CGFloat) {
        self.init(frame: .zero)
        size = CGSize(width: width, height: height)
        translatesAutoresizingMaskIntoConstraints = false
    }

    override var intrinsicContentSize: CGSize { size }
}

/// A view that records the frames of its subviews when it lays them out.
@MainActor
final class RecordingLayoutView: UIView {
    var log: [String] = []
    override func updateConstraints() {
        log.append("updateConstraints")
        super.updateConstraints()
    }

    override func layoutSubviews() {
        log.append("layoutSubviews \(subviews.first.map { "\($0.frame)" } ?? "")")
    }
}

@MainActor
func layoutProblems() -> [String] {
    var messages: [String] = []
    for entry in UIApplication.shared.diagnostics.entries where entry.kind == .layoutConstraints { messages.append(entry.message) }
    return messages
}

@MainActor
@Suite struct AutoLayoutTests {
    /// A clean application, a window, and a 300×200 container at (0, 0) in it.
    private func makeContainer() -> (UIWindow, UIView) {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
        window.addSubview(container)
        return (window, container)
    }

    private func plainView(in container: UIView) -> UIView {
        let view = UIView()
        view.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(view)
        return view
    }

    @Test func edgesPinnedToTheSuperviewGiveTheFrame() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        NSLayoutConstraint.activate([
            view.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 10),
            view.trailingAnchor.constraint(equalTo: container.trailingAnchor, constant: -20),
            view.topAnchor.constraint(equalTo: container.topAnchor, constant: 30),
            view.heightAnchor.constraint(equalToConstant: 44),
        ])
        container.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 10, y: 30, width: 270, height: 44))
        // As in UIKit, a constraint on one view is installed in that view.
        expectEqual(view.constraints.count, 1)
        expectEqual(container.constraints.count, 3)
        #expect(!view.hasAmbiguousLayout)
    }

    @Test func theInitializerSpellingMatchesTheAnchors() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let constraints = [
            NSLayoutConstraint(item: view, attribute: .centerX, relatedBy: .equal, toItem: container, attribute: .centerX, multiplier: 1, constant: 0),
            NSLayoutConstraint(item: view, attribute: .centerY, relatedBy: .equal, toItem: container, attribute: .centerY, multiplier: 1, constant: 10),
            NSLayoutConstraint(item: view, attribute: .width, relatedBy: .equal, toItem: container, attribute: .width, multiplier: 0.5, constant: 0),
            NSLayoutConstraint(item: view, attribute: .height, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: 40),
        ]
        NSLayoutConstraint.activate(constraints)
        #expect(constraints.allSatisfy { $0.isActive })
        container.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 75, y: 90, width: 150, height: 40))
        NSLayoutConstraint.deactivate(constraints)
        #expect(!constraints.contains { $0.isActive })
        #expect(container.constraints.isEmpty)
    }

    /// The classic row: a label hugs its text, a field takes the rest.
    @Test func aLabelHugsItsTextNextToAFieldThatStretches() {
        let (_, container) = makeContainer()
        let label = SizedView(width: 60, height: 20)
        let field = SizedView(width: 100, height: 30)
        container.addSubview(label)
        container.addSubview(field)
        label.setContentHuggingPriority(UILayoutPriority(251), for: .horizontal)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
            field.leadingAnchor.constraint(equalToSystemSpacingAfter: label.trailingAnchor, multiplier: 1),
            field.trailingAnchor.constraint(equalTo: container.trailingAnchor, constant: -20),
            label.centerYAnchor.constraint(equalTo: container.centerYAnchor),
            field.centerYAnchor.constraint(equalTo: container.centerYAnchor),
        ])
        container.layoutIfNeeded()
        expectEqual(label.frame, CGRect(x: 20, y: 90, width: 60, height: 20))
        expectEqual(field.frame, CGRect(x: 88, y: 85, width: 192, height: 30))
    }

    /// Two labels that do not both fit: the one with the lower compression
    /// resistance is the one that shrinks.
    @Test func compressionResistanceDecidesWhichLabelShrinks() {
        let (_, container) = makeContainer()
        let first = SizedView(width: 200, height: 20)
        let second = SizedView(width: 200, height: 20)
        container.addSubview(first)
        container.addSubview(second)
        NSLayoutConstraint.activate([
            first.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            second.leadingAnchor.constraint(equalTo: first.trailingAnchor),
            second.trailingAnchor.constraint(equalTo: container.trailingAnchor),
            first.topAnchor.constraint(equalTo: container.topAnchor),
            second.topAnchor.constraint(equalTo: container.topAnchor),
        ])
        second.setContentCompressionResistancePriority(UILayoutPriority(751), for: .horizontal)
        container.layoutIfNeeded()
        expectEqual(first.frame.width, 100)
        expectEqual(second.frame, CGRect(x: 100, y: 0, width: 200, height: 20))
        first.setContentCompressionResistancePriority(.required, for: .horizontal)
        container.layoutIfNeeded()
        expectEqual(first.frame.width, 200)
        expectEqual(second.frame.width, 100)
    }

    @Test func aConstantChangedAfterActivationMovesTheView() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let left = view.leftAnchor.constraint(equalTo: container.leftAnchor, constant: 10)
        NSLayoutConstraint.activate([
            left, view.topAnchor.constraint(equalTo: container.topAnchor),
            view.widthAnchor.constraint(equalToConstant: 50), view.heightAnchor.constraint(equalToConstant: 50),
        ])
        container.layoutIfNeeded()
        expectEqual(view.frame.origin.x, 10)
        // Frames land on the pixels of the 3× screen.
        for (constant, x) in [(40.0, 40.0), (75.5, 75 + 2.0 / 3), (0, 0)] {
            left.constant = constant
            container.layoutIfNeeded()
            #expect(abs(view.frame.origin.x - x) < 1e-9)
        }
    }

    @Test func theUpdateCycleSolvesBeforeLayoutSubviews() {
        let (window, _) = makeContainer()
        UIApplication.shared.runLoop.useManualClock()
        let host = RecordingLayoutView(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        window.addSubview(host)
        let child = plainView(in: host)
        NSLayoutConstraint.activate([
            child.leadingAnchor.constraint(equalTo: host.leadingAnchor, constant: 5),
            child.topAnchor.constraint(equalTo: host.topAnchor, constant: 6),
            child.widthAnchor.constraint(equalToConstant: 7),
            child.heightAnchor.constraint(equalToConstant: 8),
        ])
        host.setNeedsUpdateConstraints()
        host.log.removeAll()
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(host.log.first, "updateConstraints")
        #expect(host.log.contains("layoutSubviews \(CGRect(x: 5, y: 6, width: 7, height: 8))"))
        expectEqual(child.frame, CGRect(x: 5, y: 6, width: 7, height: 8))
    }

    @Test func contradictoryConstraintsAreReportedAndOneIsBroken() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let narrow = view.widthAnchor.constraint(equalToConstant: 100)
        let wide = view.widthAnchor.constraint(equalToConstant: 200)
        wide.identifier = "too-wide"
        NSLayoutConstraint.activate([narrow, wide, view.heightAnchor.constraint(equalToConstant: 10),
                                     view.leftAnchor.constraint(equalTo: container.leftAnchor),
                                     view.topAnchor.constraint(equalTo: container.topAnchor)])
        container.layoutIfNeeded()
        expectEqual(view.frame.width, 100)
        let message = layoutProblems().last
        expectEqual(message?.hasPrefix("Unable to simultaneously satisfy constraints."), true)
        expectEqual(message?.contains("Will attempt to recover by breaking constraint\n<NSLayoutConstraint:"), true)
        expectEqual(message?.contains("'too-wide'"), true)
        #expect(wide.isActive)
        // Once the constraint it conflicted with goes, the broken one applies.
        narrow.isActive = false
        container.layoutIfNeeded()
        expectEqual(view.frame.width, 200)
    }

    @Test func aTranslatedFrameConflictsLikeUIKitsAutoresizingConstraints() {
        let (_, container) = makeContainer()
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        container.addSubview(view)
        view.widthAnchor.constraint(equalToConstant: 80).isActive = true
        container.layoutIfNeeded()
        expectEqual(view.frame.width, 50)
        expectEqual(layoutProblems().last?.contains("NSAutoresizingMaskLayoutConstraint"), true)
    }

    @Test func viewsWithoutACommonAncestorAreRefused() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let stranger = UIView()
        let constraint = view.leadingAnchor.constraint(equalTo: stranger.leadingAnchor)
        constraint.isActive = true
        #expect(!constraint.isActive)
        expectEqual(layoutProblems().last?.contains("because they have no common ancestor"), true)
    }

    @Test func badNumbersAndMismatchedAttributesAreRefused() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let notANumber = view.widthAnchor.constraint(equalToConstant: .nan)
        notANumber.isActive = true
        #expect(!notANumber.isActive)
        let mixed = NSLayoutConstraint(item: view, attribute: .left, relatedBy: .equal, toItem: container, attribute: .width, multiplier: 1, constant: 0)
        mixed.isActive = true
        #expect(!mixed.isActive)
        let directional = NSLayoutConstraint(item: view, attribute: .leading, relatedBy: .equal, toItem: container, attribute: .left, multiplier: 1, constant: 0)
        #expect(directional.invalidity != nil)
        let locationToConstant = NSLayoutConstraint(item: view, attribute: .top, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: 5)
        #expect(locationToConstant.invalidity != nil)
        #expect(layoutProblems().count >= 4)
        container.layoutIfNeeded()
    }

    @Test func priorityCannotTurnRequiredWhileActive() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let width = view.widthAnchor.constraint(equalToConstant: 10)
        width.isActive = true
        width.priority = .defaultHigh
        expectEqual(width.priority, .required)
        width.isActive = false
        width.priority = .defaultHigh
        expectEqual(width.priority, .defaultHigh)
    }

    @Test func removingAViewDeactivatesTheConstraintsThatTiedItOut() {
        let (_, container) = makeContainer()
        let box = plainView(in: container)
        let inner = plainView(in: box)
        let outer = box.topAnchor.constraint(equalTo: container.topAnchor, constant: 5)
        let inside = inner.widthAnchor.constraint(equalTo: box.widthAnchor)
        NSLayoutConstraint.activate([outer, inside])
        box.removeFromSuperview()
        #expect(!outer.isActive)
        #expect(inside.isActive)
        expectEqual(box.constraints.count, 1)
        // Back in a tree, the inner constraint acts again.
        container.addSubview(box)
        NSLayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor), box.topAnchor.constraint(equalTo: container.topAnchor),
            box.widthAnchor.constraint(equalToConstant: 120), box.heightAnchor.constraint(equalToConstant: 20),
            inner.leadingAnchor.constraint(equalTo: box.leadingAnchor), inner.topAnchor.constraint(equalTo: box.topAnchor),
            inner.heightAnchor.constraint(equalToConstant: 5),
        ])
        container.layoutIfNeeded()
        expectEqual(inner.frame, CGRect(x: 0, y: 0, width: 120, height: 5))
    }

    /// Constraints between views at different depths convert through the
    /// frames of the views in between.
    @Test func constraintsAcrossLevelsUseTheFramesBetween() {
        let (_, container) = makeContainer()
        let panel = UIView(frame: CGRect(x: 40, y: 50, width: 100, height: 100))
        container.addSubview(panel)
        let deep = plainView(in: panel)
        let marker = plainView(in: container)
        NSLayoutConstraint.activate([
            deep.leadingAnchor.constraint(equalTo: panel.leadingAnchor, constant: 10),
            deep.topAnchor.constraint(equalTo: panel.topAnchor, constant: 10),
            deep.widthAnchor.constraint(equalToConstant: 20), deep.heightAnchor.constraint(equalToConstant: 20),
            marker.leadingAnchor.constraint(equalTo: deep.trailingAnchor),
            marker.topAnchor.constraint(equalTo: deep.bottomAnchor),
            marker.widthAnchor.constraint(equalToConstant: 1), marker.heightAnchor.constraint(equalToConstant: 1),
        ])
        container.layoutIfNeeded()
        expectEqual(marker.frame.origin, CGPoint(x: 70, y: 80))
        // The panel lays out by its frame: moving it moves what depends on it.
        panel.frame.origin = CGPoint(x: 0, y: 0)
        container.layoutIfNeeded()
        expectEqual(marker.frame.origin, CGPoint(x: 30, y: 30))
    }

    @Test func autoresizingMasksResizeFrameBasedSubviews() {
        let (_, container) = makeContainer()
        let bar = UIView(frame: CGRect(x: 10, y: 0, width: 280, height: 44))
        bar.autoresizingMask = [.flexibleWidth]
        let badge = UIView(frame: CGRect(x: 260, y: 150, width: 30, height: 30))
        badge.autoresizingMask = [.flexibleLeftMargin, .flexibleTopMargin]
        container.addSubview(bar)
        container.addSubview(badge)
        container.frame.size = CGSize(width: 400, height: 300)
        expectEqual(bar.frame, CGRect(x: 10, y: 0, width: 380, height: 44))
        expectEqual(badge.frame, CGRect(x: 360, y: 250, width: 30, height: 30))
        container.autoresizesSubviews = false
        container.frame.size = CGSize(width: 300, height: 200)
        expectEqual(bar.frame.width, 380)
    }

    @Test func controlsHaveUIKitsIntrinsicSizes() {
        expectEqual(UISwitch().intrinsicContentSize, CGSize(width: 51, height: 31))
        let slider = UISlider()
        expectEqual(slider.intrinsicContentSize.width, UIView.noIntrinsicMetric)
        expectEqual(slider.intrinsicContentSize.height, 31)
        let image = UIImage(size: CGSize(width: 40, height: 30))
        expectEqual(UIImageView(image: image).intrinsicContentSize, CGSize(width: 40, height: 30))
        expectEqual(UIImageView().intrinsicContentSize, CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric))
        let label = UILabel()
        label.text = "Hello"
        #expect(label.intrinsicContentSize.width > 0)
        let button = UIButton(type: .system)
        button.setTitle("Tap", for: .normal)
        #expect(button.intrinsicContentSize.width > 0)
    }

    @Test func aLabelsNewTextResizesItThroughTheEngine() {
        let (_, container) = makeContainer()
        let label = UILabel()
        label.translatesAutoresizingMaskIntoConstraints = false
        label.text = "Hi"
        container.addSubview(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            label.topAnchor.constraint(equalTo: container.topAnchor),
        ])
        container.layoutIfNeeded()
        let short = label.frame.width
        expectEqual(short, label.intrinsicContentSize.width)
        label.text = "Hello, world"
        container.layoutIfNeeded()
        expectEqual(label.frame.width, label.intrinsicContentSize.width)
        #expect(label.frame.width > short)
    }

    @Test func fittingSizeOfAContainerFollowsItsContent() {
        let card = UIView()
        let content = SizedView(width: 120, height: 40)
        card.addSubview(content)
        NSLayoutConstraint.activate([
            content.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 16),
            content.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -16),
            content.topAnchor.constraint(equalTo: card.topAnchor, constant: 8),
            content.bottomAnchor.constraint(equalTo: card.bottomAnchor, constant: -8),
        ])
        expectEqual(card.systemLayoutSizeFitting(UIView.layoutFittingCompressedSize), CGSize(width: 152, height: 56))
        let wide = card.systemLayoutSizeFitting(CGSize(width: 300, height: 0), withHorizontalFittingPriority: .required,
                                                verticalFittingPriority: .fittingSizeLevel)
        expectEqual(wide, CGSize(width: 300, height: 56))
        expectEqual(card.frame.size, .zero)
    }

    @Test func marginsGuideFollowsTheMargins() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let guide = container.layoutMarginsGuide
        NSLayoutConstraint.activate([
            view.leadingAnchor.constraint(equalTo: guide.leadingAnchor), view.trailingAnchor.constraint(equalTo: guide.trailingAnchor),
            view.topAnchor.constraint(equalTo: guide.topAnchor), view.bottomAnchor.constraint(equalTo: guide.bottomAnchor),
        ])
        container.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 8, y: 8, width: 284, height: 184))
        container.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 0, leading: 20, bottom: 10, trailing: 30)
        container.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 20, y: 0, width: 250, height: 190))
        expectEqual(guide.layoutFrame, CGRect(x: 20, y: 0, width: 250, height: 190))
        let marginAttribute = NSLayoutConstraint(item: view, attribute: .leading, relatedBy: .equal, toItem: container,
                                                 attribute: .leadingMargin, multiplier: 1, constant: 0)
        #expect(marginAttribute.invalidity == nil)
    }

    /// The guide is the screen's insets clipped to the view, and a view
    /// pinned to it follows when the screen's insets change after layout.
    @Test func safeAreaGuideStaysInsideTheWindowsInsets() {
        let (window, container) = makeContainer()
        UIScreen.main.bounds = window.frame
        container.frame = window.bounds
        let view = plainView(in: container)
        let safe = container.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            view.leadingAnchor.constraint(equalTo: safe.leadingAnchor), view.trailingAnchor.constraint(equalTo: safe.trailingAnchor),
            view.topAnchor.constraint(equalTo: safe.topAnchor), view.bottomAnchor.constraint(equalTo: safe.bottomAnchor),
        ])
        container.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 0, y: 0, width: 400, height: 800), "no safe area yet")
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        expectEqual(container.safeAreaInsets, UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        window.layoutIfNeeded()
        expectEqual(view.frame, CGRect(x: 0, y: 47, width: 400, height: 800 - 47 - 34))
    }

    @Test func readableContentGuideIsNarrowedAndCentred() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 1000, height: 600))
        let container = UIView(frame: window.bounds)
        window.addSubview(container)
        expectEqual(container.readableContentGuide.layoutFrame, CGRect(x: 164, y: 8, width: 672, height: 584))
    }

    /// Two hundred views here, in a debug build; the benchmark chains 10,000
    /// in a release build.
    @Test func aCycleOfChainedViewsIsReportedNotFatal() {
        let (_, container) = makeContainer()
        var views: [UIView] = []
        var constraints: [NSLayoutConstraint] = []
        for index in 0..<200 {
            let view = plainView(in: container)
            constraints.append(view.widthAnchor.constraint(equalToConstant: 1))
            if index > 0 { constraints.append(view.leadingAnchor.constraint(equalTo: views[index - 1].trailingAnchor)) }
            views.append(view)
        }
        constraints.append(views[0].leadingAnchor.constraint(equalTo: views[199].trailingAnchor))
        NSLayoutConstraint.activate(constraints)
        container.layoutIfNeeded()
        expectEqual(layoutProblems().last?.contains("Will attempt to recover by breaking constraint"), true)
        expectEqual(views[199].frame.minX - views[0].frame.minX, 199)
    }

    @Test func ambiguityAndTheConstraintsAffectingAView() {
        let (_, container) = makeContainer()
        let view = plainView(in: container)
        let left = view.leftAnchor.constraint(equalTo: container.leftAnchor)
        NSLayoutConstraint.activate([left, view.widthAnchor.constraint(equalToConstant: 10)])
        #expect(view.hasAmbiguousLayout)
        NSLayoutConstraint.activate([view.topAnchor.constraint(equalTo: container.topAnchor), view.heightAnchor.constraint(equalToConstant: 10)])
        #expect(!view.hasAmbiguousLayout)
        let horizontal = view.constraintsAffectingLayout(for: .horizontal)
        expectEqual(horizontal.count, 2)
        #expect(horizontal.contains { $0 === left })
    }

    /// A view free to slide along a row moves to another place in it; every
    /// required constraint still holds, a later layout pass keeps the new
    /// place, and a view whose frame is fully decided does not move.
    @Test func exercisingAmbiguityMovesOnlyAnAmbiguousViewToAnotherValidFrame() {
        let (_, container) = makeContainer()
        let sliding = plainView(in: container)
        let fixed = plainView(in: container)
        NSLayoutConstraint.activate([
            sliding.widthAnchor.constraint(equalToConstant: 40), sliding.heightAnchor.constraint(equalToConstant: 20),
            sliding.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
            sliding.leadingAnchor.constraint(greaterThanOrEqualTo: container.leadingAnchor),
            sliding.trailingAnchor.constraint(lessThanOrEqualTo: container.trailingAnchor),
            fixed.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 30),
            fixed.topAnchor.constraint(equalTo: sliding.bottomAnchor, constant: 8),
            fixed.widthAnchor.constraint(equalToConstant: 50), fixed.heightAnchor.constraint(equalToConstant: 50),
        ])
        container.layoutIfNeeded()
        #expect(sliding.hasAmbiguousLayout)
        #expect(!fixed.hasAmbiguousLayout)
        for _ in 0..<5 {
            let before = sliding.frame
            sliding.exerciseAmbiguityInLayout()
            let after = sliding.frame
            #expect(after.minX != before.minX, "moved along the row")
            #expect(abs(after.width - 40) < 0.001 && after.height == 20, "the same size: \(after.size)")
            expectEqual(after.minY, 10)
            #expect(after.minX >= 0 && after.maxX <= 300, "still inside the container: \(after)")
            #expect(sliding.hasAmbiguousLayout, "the pull does not make the layout any less ambiguous")
        }
        let exercised = sliding.frame
        container.frame.size.height = 220
        container.layoutIfNeeded()
        expectEqual(sliding.frame, exercised, "the next layout pass keeps the new solution")

        fixed.exerciseAmbiguityInLayout()
        expectEqual(fixed.frame, CGRect(x: 30, y: 38, width: 50, height: 50))
    }

    /// The expanded target asks for the largest size the constraints allow.
    @Test func theExpandedFittingSizeGivesTheLargestSizeAllowed() {
        let (_, container) = makeContainer()
        let banner = plainView(in: container)
        let label = UILabel()
        label.text = "Hello"
        label.translatesAutoresizingMaskIntoConstraints = false
        banner.addSubview(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: banner.leadingAnchor), label.topAnchor.constraint(equalTo: banner.topAnchor),
            label.bottomAnchor.constraint(equalTo: banner.bottomAnchor),
            label.trailingAnchor.constraint(lessThanOrEqualTo: banner.trailingAnchor),
            banner.widthAnchor.constraint(lessThanOrEqualToConstant: 320),
        ])
        expectEqual(UIView.layoutFittingExpandedSize, CGSize(width: 10_000, height: 10_000))
        let expanded = banner.systemLayoutSizeFitting(UIView.layoutFittingExpandedSize)
        let compressed = banner.systemLayoutSizeFitting(UIView.layoutFittingCompressedSize)
        expectEqual(expanded.width, 320)
        expectEqual(expanded.height, compressed.height, "the label's height holds it vertically")
        #expect(compressed.width >= label.intrinsicContentSize.width && compressed.width < label.intrinsicContentSize.width + 1,
                "as narrow as the label: \(compressed.width)")
    }

    @Test func viewControllersUpdateTheirViewConstraints() {
        final class Controller: UIViewController {
            var calls = 0
            override func updateViewConstraints() {
                calls += 1
                super.updateViewConstraints()
            }
        }
        let controller = Controller()
        let (window, _) = makeScene(controller)
        controller.view.setNeedsUpdateConstraints()
        window.layoutIfNeeded()
        expectEqual(controller.calls, 1)
    }

    /// A constraint on a label's first baseline follows a new font (UIKit
    /// recomputes baselines when the font changes).
    @Test func baselineConstraintsFollowTheLabelsFont() {
        let (window, container) = makeContainer()
        let label = UILabel()
        label.text = "Baseline"
        label.font = .systemFont(ofSize: 17)
        label.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(label)
        let rule = plainView(in: container)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            label.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
            rule.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            rule.widthAnchor.constraint(equalToConstant: 100),
            rule.heightAnchor.constraint(equalToConstant: 1),
            rule.topAnchor.constraint(equalTo: label.firstBaselineAnchor),
        ])
        window.layoutIfNeeded()
        // The label hugs its text, so its first baseline is its top plus the font's ascender (to a pixel).
        #expect(abs(rule.frame.minY - (10 + label.font!.ascender)) <= 0.34)
        label.font = .systemFont(ofSize: 34)
        window.layoutIfNeeded()
        #expect(abs(rule.frame.minY - (10 + label.font!.ascender)) <= 0.34)
        #expect(rule.frame.minY > 10 + UIFont.systemFont(ofSize: 17).ascender + 5)
        #expect(label.constraintsAffectingLayout(for: .vertical).count >= 2)
    }

    /// A scroll view's content guide sizes the content (its solved size is
    /// the content size); its frame guide holds a view still on screen while
    /// the content scrolls.
    @Test func scrollViewGuidesSizeTheContentAndHoldAViewOnScreen() {
        let window = makeWindow()
        let scrollView = UIScrollView(frame: CGRect(x: 0, y: 0, width: 300, height: 400))
        window.addSubview(scrollView)
        let content = UIView()
        let badge = UIView()
        for view in [content, badge] {
            view.translatesAutoresizingMaskIntoConstraints = false
            scrollView.addSubview(view)
        }
        NSLayoutConstraint.activate([
            content.topAnchor.constraint(equalTo: scrollView.contentLayoutGuide.topAnchor),
            content.leadingAnchor.constraint(equalTo: scrollView.contentLayoutGuide.leadingAnchor),
            content.trailingAnchor.constraint(equalTo: scrollView.contentLayoutGuide.trailingAnchor),
            content.bottomAnchor.constraint(equalTo: scrollView.contentLayoutGuide.bottomAnchor),
            content.widthAnchor.constraint(equalTo: scrollView.frameLayoutGuide.widthAnchor),
            content.heightAnchor.constraint(equalToConstant: 1000),
            badge.topAnchor.constraint(equalTo: scrollView.frameLayoutGuide.topAnchor, constant: 10),
            badge.trailingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.trailingAnchor, constant: -10),
            badge.widthAnchor.constraint(equalToConstant: 40),
            badge.heightAnchor.constraint(equalToConstant: 20),
        ])
        window.layoutIfNeeded()
        expectEqual(scrollView.contentSize, CGSize(width: 300, height: 1000))
        expectEqual(content.frame, CGRect(x: 0, y: 0, width: 300, height: 1000))
        expectEqual(badge.frame, CGRect(x: 250, y: 10, width: 40, height: 20))
        expectEqual(scrollView.frameLayoutGuide.layoutFrame, CGRect(x: 0, y: 0, width: 300, height: 400))
        // Scrolled 200 points: the badge stays 10 points below the visible top.
        scrollView.contentOffset = CGPoint(x: 0, y: 200)
        window.layoutIfNeeded()
        expectEqual(badge.frame, CGRect(x: 250, y: 210, width: 40, height: 20))
        expectEqual(content.frame.minY, 0)
    }
}
