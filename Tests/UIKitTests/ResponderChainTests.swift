import TestExpectations
import Testing
@testable import UIKit

/// Performs `.copy` when `copies` is set, and says so in the log; can become
/// first responder when `acceptsFirstResponder` is set.
@MainActor
final class ActionView: UIView {
    var name = ""
    var log: CallLog?
    var copies = false
    var hasSelection = true
    var acceptsFirstResponder = false
    var refusesToResign = false

    convenience init(_ name: String, log: CallLog, frame: CGRect = CGRect(x: 0, y: 0, width: 100, height: 100)) {
        self.init(frame: frame)
        self.name = name
        self.log = log
    }

    override var canBecomeFirstResponder: Bool { acceptsFirstResponder }

    override func resignFirstResponder() -> Bool {
        log?.add("\(name) resign")
        return refusesToResign ? false : super.resignFirstResponder()
    }

    override func handler(forAction action: Selector) -> ActionHandler? {
        action == .copy && copies ? copy : super.handler(forAction: action)
    }

    override func canPerformAction(_ action: Selector, withSender sender: Any?) -> Bool {
        action == .copy ? copies && hasSelection : super.canPerformAction(action, withSender: sender)
    }

    func copy(_ sender: Any?) {
        log?.add("\(name) copy from \((sender as? UIView)?.tag ?? -1)")
    }
}

/// A handler for `.copy` that logs "`name` copy", when `copies`; else nil.
@MainActor
private func copyHandler(for action: Selector, if copies: Bool, log: CallLog?, name: String) -> UIResponder.ActionHandler? {
    guard action == .copy, copies else { return nil }
    return { _ in log?.add("\(name) copy") }
}

@MainActor
final class ActionController: UIViewController {
    var log: CallLog?
    var copies = false

    override func handler(forAction action: Selector) -> ActionHandler? {
        copyHandler(for: action, if: copies, log: log, name: "controller") ?? super.handler(forAction: action)
    }
}

@MainActor
final class ActionWindow: UIWindow {
    var log: CallLog?
    var copies = false

    override func handler(forAction action: Selector) -> ActionHandler? {
        copyHandler(for: action, if: copies, log: log, name: "window") ?? super.handler(forAction: action)
    }
}

@MainActor
final class ActionAppDelegate: UIResponder, UIApplicationDelegate {
    var log: CallLog?
    var copies = false

    override func handler(forAction action: Selector) -> ActionHandler? {
        copyHandler(for: action, if: copies, log: log, name: "delegate") ?? super.handler(forAction: action)
    }
}

/// Window ← controller's view ← parent ← leaf; and the application's delegate.
@MainActor
struct ChainScene {
    let log = CallLog()
    let window: ActionWindow
    let controller = ActionController()
    let parent: ActionView
    let leaf: ActionView
    let delegate = ActionAppDelegate()

    init() {
        UIApplication.shared.resetForTesting()
        UIApplication.shared.diagnostics.handler = nil
        window = ActionWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        parent = ActionView("parent", log: log, frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        leaf = ActionView("leaf", log: log, frame: CGRect(x: 10, y: 10, width: 100, height: 100))
        window.log = log
        controller.log = log
        delegate.log = log
        UIApplication.shared.delegate = delegate
        window.rootViewController = controller
        controller.view.addSubview(parent)
        parent.addSubview(leaf)
    }
}

@MainActor
@Suite struct FirstResponderTests {
    @Test func onlyAResponderThatCanBecomeFirstResponderDoes() {
        let scene = ChainScene()
        #expect(!scene.leaf.becomeFirstResponder())
        #expect(!scene.leaf.isFirstResponder)
        scene.leaf.acceptsFirstResponder = true
        #expect(scene.leaf.becomeFirstResponder())
        #expect(scene.leaf.isFirstResponder)
        #expect(scene.window.firstResponder === scene.leaf)
        #expect(scene.leaf.becomeFirstResponder())  // already: still true, nothing resigns
        #expect(scene.log.entries.isEmpty)
    }

    @Test func aNewFirstResponderMakesTheOldOneResign() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.parent.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        #expect(scene.parent.becomeFirstResponder())
        expectEqual(scene.log.entries, ["leaf resign"])
        #expect(!scene.leaf.isFirstResponder && scene.parent.isFirstResponder)
        #expect(scene.parent.resignFirstResponder())
        #expect(!scene.parent.isFirstResponder && scene.window.firstResponder == nil)
    }

    @Test func aFirstResponderThatRefusesToResignKeepsTheStatus() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.parent.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        scene.leaf.refusesToResign = true
        #expect(!scene.parent.becomeFirstResponder())
        #expect(scene.leaf.isFirstResponder && !scene.parent.isFirstResponder)

        final class Stubborn: UIView {
            override var canBecomeFirstResponder: Bool { true }
            override var canResignFirstResponder: Bool { false }
        }
        let stubborn = Stubborn()
        scene.window.addSubview(stubborn)
        scene.leaf.refusesToResign = false
        #expect(stubborn.becomeFirstResponder())
        #expect(!stubborn.resignFirstResponder())
        #expect(!scene.leaf.becomeFirstResponder())
        #expect(stubborn.isFirstResponder)
    }

    @Test func aResponderOutsideAnyWindowCannotBecomeFirstResponder() {
        let scene = ChainScene()
        let loose = ActionView("loose", log: scene.log)
        loose.acceptsFirstResponder = true
        #expect(!loose.becomeFirstResponder())
        #expect(!UIViewController().becomeFirstResponder())
    }

    @Test func aFirstResponderLeavingItsWindowResigns() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.refusesToResign = true  // leaving the window is not refusable
        scene.leaf.becomeFirstResponder()
        scene.parent.removeFromSuperview()
        expectEqual(scene.log.entries, ["leaf resign"])
        #expect(!scene.leaf.isFirstResponder && scene.window.firstResponder == nil)

        // Moved straight into another window: resigns from the first one too.
        scene.window.addSubview(scene.parent)
        scene.leaf.becomeFirstResponder()
        let other = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        other.addSubview(scene.leaf)
        #expect(!scene.leaf.isFirstResponder && scene.window.firstResponder == nil)
    }

    @Test func eachWindowHasItsOwnFirstResponder() {
        let scene = ChainScene()
        let other = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let elsewhere = ActionView("elsewhere", log: scene.log)
        elsewhere.acceptsFirstResponder = true
        other.addSubview(elsewhere)
        scene.leaf.acceptsFirstResponder = true
        #expect(scene.leaf.becomeFirstResponder())
        #expect(elsewhere.becomeFirstResponder())
        #expect(scene.leaf.isFirstResponder && elsewhere.isFirstResponder)
        #expect(scene.log.entries.isEmpty)
        #expect(UIApplication.shared.firstResponder === scene.leaf)  // the key window's
    }

    @Test func aViewControllerCanBeFirstResponder() {
        final class KeyController: UIViewController {
            override var canBecomeFirstResponder: Bool { true }
        }
        let window = makeWindow()
        let controller = KeyController()
        #expect(!controller.becomeFirstResponder())  // its view is not in a window yet
        window.rootViewController = controller
        #expect(controller.becomeFirstResponder())
        controller.view.removeFromSuperview()
        #expect(!controller.isFirstResponder)
    }
}

@MainActor
@Suite struct NilTargetedActionTests {
    /// Sends `.copy` with a nil target from a sender with tag 5.
    private func sendCopy() -> Bool {
        let sender = UIView()
        sender.tag = 5
        return UIApplication.shared.sendAction(.copy, to: nil, from: sender, for: nil)
    }

    @Test func theFirstResponderPerformsTheActionItImplements() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        scene.leaf.copies = true
        scene.parent.copies = true
        #expect(sendCopy())
        expectEqual(scene.log.entries, ["leaf copy from 5"])
    }

    @Test func theActionIsFoundAtEachLevelOfTheChain() {
        let levels: [(String, (ChainScene) -> Void)] = [
            ("parent copy from 5", { $0.parent.copies = true }),
            ("controller copy", { $0.controller.copies = true }),
            ("window copy", { $0.window.copies = true }),
            ("delegate copy", { $0.delegate.copies = true }),
        ]
        for (expected, setUp) in levels {
            let scene = ChainScene()
            scene.leaf.acceptsFirstResponder = true
            scene.leaf.becomeFirstResponder()
            setUp(scene)
            #expect(sendCopy(), "\(expected)")
            expectEqual(scene.log.entries, [expected])
        }
    }

    @Test func anActionNobodyPerformsIsNotSent() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        #expect(!sendCopy())
        #expect(!UIApplication.shared.sendAction(.paste, to: nil, from: nil, for: nil))
        #expect(scene.log.entries.isEmpty)
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
    }

    @Test func canPerformActionSaysNotNowAndTheSearchGoesOn() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        scene.leaf.copies = true
        scene.leaf.hasSelection = false
        scene.delegate.copies = true
        #expect(scene.leaf.target(forAction: .copy, withSender: nil) as? ActionAppDelegate === scene.delegate)
        #expect(sendCopy())
        expectEqual(scene.log.entries, ["delegate copy"])
    }

    @Test func withoutAFirstResponderTheSearchStartsAtTheSender() {
        let scene = ChainScene()
        scene.parent.copies = true
        let button = UIButton()
        button.tag = 9
        scene.leaf.addSubview(button)
        #expect(UIApplication.shared.sendAction(.copy, to: nil, from: button, for: nil))
        expectEqual(scene.log.entries, ["parent copy from 9"])
        // A sender that is no responder: the search starts at the key window.
        scene.window.copies = true
        #expect(UIApplication.shared.sendAction(.copy, to: nil, from: "menu", for: nil))
        expectEqual(scene.log.entries.last, "window copy")
    }

    @Test func anExplicitTargetGetsTheActionWithoutTheChain() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        scene.leaf.copies = true
        scene.parent.copies = true
        #expect(UIApplication.shared.sendAction(.copy, to: scene.parent, from: nil, for: nil))
        expectEqual(scene.log.entries, ["parent copy from -1"])
        // A target that does not perform it: reported, nothing runs.
        #expect(!UIApplication.shared.sendAction(.copy, to: scene.controller, from: nil, for: nil))
        #expect(!UIApplication.shared.sendAction(.copy, to: NSObject(), from: nil, for: nil))
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), [.unhandledAction, .unhandledAction])
        expectEqual(scene.log.entries.count, 1)
    }

    @Test func targetForActionCanNameAnotherResponder() {
        final class Forwarding: UIView {
            var helper: UIResponder?
            override func target(forAction action: Selector, withSender sender: Any?) -> Any? {
                action == .copy ? helper : super.target(forAction: action, withSender: sender)
            }
        }
        let scene = ChainScene()
        let forwarding = Forwarding()
        scene.window.addSubview(forwarding)
        let helper = ActionView("helper", log: scene.log)
        helper.copies = true
        forwarding.helper = helper
        #expect(UIApplication.shared.sendAction(.copy, to: nil, from: forwarding, for: nil))
        expectEqual(scene.log.entries, ["helper copy from 0"])
    }

    @Test func aButtonSendsItsNamedActionToWhoeverCanPerformIt() {
        let scene = ChainScene()
        scene.leaf.acceptsFirstResponder = true
        scene.leaf.becomeFirstResponder()
        scene.leaf.copies = true
        let menuButton = UIButton(frame: CGRect(x: 200, y: 400, width: 100, height: 40))
        menuButton.tag = 3
        scene.window.addSubview(menuButton)
        menuButton.addTarget(nil, action: .copy, for: .touchUpInside)
        menuButton.addTarget(nil, action: "copy:", for: .touchUpInside)  // the same: not added twice
        TouchSynthesizer(window: scene.window).tap(at: CGPoint(x: 250, y: 420))
        expectEqual(scene.log.entries, ["leaf copy from 3"])
        // With an explicit target the named action goes there, however the chain runs.
        scene.parent.copies = true
        menuButton.removeTarget(nil, action: .copy, for: .touchUpInside)
        menuButton.addTarget(scene.parent, action: .copy, for: .touchUpInside)
        #expect(menuButton.allTargets.count == 1 && menuButton.allTargets.contains(AnyHashable(scene.parent)))
        TouchSynthesizer(window: scene.window).tap(at: CGPoint(x: 250, y: 420))
        expectEqual(scene.log.entries.last, "parent copy from 3")
    }
}
