import Foundation

/// One instance of the application's user interface, as since iOS 13.
///
/// An application has one window scene here (an iPhone's one screen). It
/// connects after `application(_:didFinishLaunchingWithOptions:)` with the
/// configuration the application delegate's
/// `application(_:configurationForConnecting:options:)` returns, and its
/// delegate then receives the life-cycle calls the application delegate
/// received before scenes: see `ApplicationLifecycle.swift`.
@preconcurrency @MainActor
open class UIScene: UIResponder {
    /// Where a scene stands.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// What the system passes a connecting scene (URLs, activities,
    /// shortcuts); empty here, where nothing launches an application with them.
    public final class ConnectionOptions {
        init() {}
    }

    public let session: UISceneSession
    /// Held strongly, as in UIKit.
    open var delegate: (any UISceneDelegate)?
    public internal(set) var activationState: ActivationState = .unattached
    open var title: String?

    public required init(session: UISceneSession, connectionOptions: ConnectionOptions) {
        self.session = session
        super.init()
    }

    /// Not for scenes: UIKit makes a scene with ``init(session:connectionOptions:)``.
    @available(*, unavailable)
    public required init(madeByUIKit _: MadeByUIKit) {
        fatalError("UIKit makes scenes with init(session:connectionOptions:)")
    }

    public static let willConnectNotification = Notification.Name("UISceneWillConnectNotification")
    public static let didDisconnectNotification = Notification.Name("UISceneDidDisconnectNotification")
    public static let didActivateNotification = Notification.Name("UISceneDidActivateNotification")
    public static let willDeactivateNotification = Notification.Name("UISceneWillDeactivateNotification")
    public static let willEnterForegroundNotification = Notification.Name("UISceneWillEnterForegroundNotification")
    public static let didEnterBackgroundNotification = Notification.Name("UISceneDidEnterBackgroundNotification")
}

/// A scene that shows windows on a screen.
@preconcurrency @MainActor
open class UIWindowScene: UIScene {
    private var windowReferences: [WeakWindow] = []

    /// The screen the scene is shown on.
    open var screen: UIScreen { UIScreen.main }

    /// The scene's windows, in the order they joined it.
    open var windows: [UIWindow] {
        var windows: [UIWindow] = []
        for reference in windowReferences {
            if let window = reference.window { windows.append(window) }
        }
        return windows
    }

    /// The scene's key window, if the application's key window is one of its windows.
    open var keyWindow: UIWindow? { windows.firstSatisfying { $0.isKeyWindow } }

    func add(_ window: UIWindow) {
        windowReferences.removeEvery { $0.window == nil || $0.window === window }
        windowReferences.append(WeakWindow(window: window))
    }

    func remove(_ window: UIWindow) {
        windowReferences.removeEvery { $0.window == nil || $0.window === window }
    }

    private struct WeakWindow {
        weak var window: UIWindow?
    }
}

/// A scene's persistent record: its role and the configuration it was
/// connected with.
@preconcurrency @MainActor
open class UISceneSession: NSObject {
    /// The kind of interface a session shows.
    public struct Role: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The application's main window.
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
        /// A window on an external display.
        public static let windowExternalDisplayNonInteractive = Role(rawValue: "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
    }

    public let role: UISceneSession.Role
    public internal(set) var configuration: UISceneConfiguration
    /// Unique to the session.
    public let persistentIdentifier: String
    public internal(set) weak var scene: UIScene?
    open var userInfo: [String: Any]?

    init(role: UISceneSession.Role, configuration: UISceneConfiguration, persistentIdentifier: String) {
        self.role = role
        self.configuration = configuration
        self.persistentIdentifier = persistentIdentifier
        super.init()
    }
}

/// Which classes UIKit makes for a scene: what an Info.plist scene
/// manifest's entry says on iOS.
@preconcurrency @MainActor
open class UISceneConfiguration: NSObject {
    public let name: String?
    public let role: UISceneSession.Role
    /// The scene's delegate class: a `UIResponder` subclass adopting
    /// ``UISceneDelegate``. When nil, UIKit takes the one the application's
    /// scene manifest gives for a configuration of the same name.
    open var delegateClass: AnyClass?
    /// The scene's class: ``UIWindowScene`` (the default) or a subclass.
    open var sceneClass: AnyClass?

    public init(name: String?, sessionRole: UISceneSession.Role) {
        self.name = name
        self.role = sessionRole
        super.init()
    }
}

/// What an iOS application's Info.plist says under
/// `UIApplicationSceneManifest`. Linux applications have no Info.plist:
/// give it in code, through ``UIApplication/sceneManifest``, before the
/// scene connects (in `application(_:didFinishLaunchingWithOptions:)` or
/// before `UIApplicationMain`).
///
/// Without one, UIKit uses what Xcode's template puts in Info.plist: a
/// configuration named "Default Configuration" whose delegate is the class
/// `SceneDelegate` of the application delegate's module, if there is one.
public struct UIApplicationSceneManifest {
    public var supportsMultipleScenes: Bool
    public var configurations: [UISceneSession.Role: [UISceneConfiguration]]

    public init(supportsMultipleScenes: Bool = false, configurations: [UISceneSession.Role: [UISceneConfiguration]]) {
        self.supportsMultipleScenes = supportsMultipleScenes
        self.configurations = configurations
    }
}

/// A scene's life: connection, activation, the background, disconnection.
@preconcurrency @MainActor
public protocol UISceneDelegate: AnyObject {
    /// The scene connects: make its windows here.
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    func sceneDidDisconnect(_ scene: UIScene)
    /// The scene is in front and receives events.
    func sceneDidBecomeActive(_ scene: UIScene)
    /// The scene is about to stop receiving events.
    func sceneWillResignActive(_ scene: UIScene)
    func sceneWillEnterForeground(_ scene: UIScene)
    func sceneDidEnterBackground(_ scene: UIScene)
}

extension UISceneDelegate {
    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {}
    public func sceneDidDisconnect(_ scene: UIScene) {}
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    public func sceneWillResignActive(_ scene: UIScene) {}
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    public func sceneDidEnterBackground(_ scene: UIScene) {}
}

/// The delegate of a window scene, which usually keeps its window.
@preconcurrency @MainActor
public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}

extension UIWindowSceneDelegate {
    public var window: UIWindow? {
        get { nil }
        set {}
    }
}
