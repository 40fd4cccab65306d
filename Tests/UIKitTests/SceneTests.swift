import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// The application's window scene and who hears its life cycle. The
/// end-to-end tests run a template-shaped application through the server's
/// switching; these check the configuration rules in-process.
@MainActor
@Suite struct SceneTests {
    final class Log { var entries: [String] = [] }

    final class ConfiguringDelegate: UIResponder, UIApplicationDelegate {
        let log = Log()
        var configuration: UISceneConfiguration?

        func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
            log.entries.append("configurationForConnecting \(connectingSceneSession.role.rawValue)")
            return configuration ?? connectingSceneSession.configuration
        }
        func applicationDidBecomeActive(_ application: UIApplication) { log.entries.append("application didBecomeActive") }
        func applicationWillResignActive(_ application: UIApplication) { log.entries.append("application willResignActive") }
    }

    final class RecordingSceneDelegate: UIResponder, UIWindowSceneDelegate {
        static var log = Log()
        var window: UIWindow?

        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
            Self.log.entries.append("willConnect \(type(of: scene)) \(session.configuration.name ?? "nil")")
        }
        func sceneDidBecomeActive(_ scene: UIScene) { Self.log.entries.append("didBecomeActive") }
        func sceneWillResignActive(_ scene: UIScene) { Self.log.entries.append("willResignActive") }
        func sceneWillEnterForeground(_ scene: UIScene) { Self.log.entries.append("willEnterForeground") }
        func sceneDidEnterBackground(_ scene: UIScene) { Self.log.entries.append("didEnterBackground") }
    }

    final class CustomScene: UIWindowScene {}

    func resetApplication() -> UIApplication {
        let application = UIApplication.shared
        application.resetForTesting()
        application.diagnostics.handler = nil
        RecordingSceneDelegate.log = Log()
        return application
    }

    @Test func theDelegatesConfigurationNamesTheSceneAndItsDelegate() throws {
        let application = resetApplication()
        let delegate = ConfiguringDelegate()
        let configuration = UISceneConfiguration(name: "Main", sessionRole: .windowApplication)
        configuration.delegateClass = RecordingSceneDelegate.self
        configuration.sceneClass = CustomScene.self
        delegate.configuration = configuration
        application.delegate = delegate

        application.connectScene()
        let scene = try #require(application.connectedScenes.first as? CustomScene)
        expectEqual(application.connectedScenes.count, 1)
        #expect(scene.delegate is RecordingSceneDelegate)
        #expect(scene.session.scene === scene)
        expectEqual(application.openSessions, [scene.session])
        application.lifecycle(.willEnterForeground)
        application.lifecycle(.didBecomeActive)
        expectEqual(scene.activationState, .foregroundActive)
        application.lifecycle(.willResignActive)
        expectEqual(scene.activationState, .foregroundInactive)

        expectEqual(delegate.log.entries, ["configurationForConnecting UIWindowSceneSessionRoleApplication"])
        expectEqual(RecordingSceneDelegate.log.entries, ["willConnect CustomScene Main", "willEnterForeground", "didBecomeActive", "willResignActive"])
    }

    @Test func aManifestGivenInCodeConfiguresTheScene() {
        let application = resetApplication()
        let delegate = ConfiguringDelegate()
        application.delegate = delegate
        let configuration = UISceneConfiguration(name: "From the manifest", sessionRole: .windowApplication)
        configuration.delegateClass = RecordingSceneDelegate.self
        application.sceneManifest = UIApplicationSceneManifest(configurations: [.windowApplication: [configuration]])

        application.connectScene()
        expectEqual(RecordingSceneDelegate.log.entries, ["willConnect UIWindowScene From the manifest"])
        #expect(application.usesScenes)
        #expect(!application.supportsMultipleScenes)
    }

    /// The manifest's entry names the delegate when the delegate's
    /// configuration, like the template's, gives only a name.
    @Test func aConfigurationGivenByNameTakesTheManifestsDelegateClass() {
        let application = resetApplication()
        let delegate = ConfiguringDelegate()
        delegate.configuration = UISceneConfiguration(name: "Default Configuration", sessionRole: .windowApplication)
        application.delegate = delegate
        let entry = UISceneConfiguration(name: "Default Configuration", sessionRole: .windowApplication)
        entry.delegateClass = RecordingSceneDelegate.self
        application.sceneManifest = UIApplicationSceneManifest(configurations: [.windowApplication: [entry]])

        application.connectScene()
        expectEqual(RecordingSceneDelegate.log.entries, ["willConnect UIWindowScene Default Configuration"])
    }

    /// Without a scene delegate the application delegate hears the life
    /// cycle, and windows made before the scene connected join it.
    @Test func withoutASceneDelegateTheApplicationDelegateHearsTheLifeCycle() throws {
        let application = resetApplication()
        let delegate = ConfiguringDelegate()
        application.delegate = delegate
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))

        application.connectScene()
        let scene = try #require(application.connectedScenes.first as? UIWindowScene)
        #expect(scene.delegate == nil)
        #expect(!application.usesScenes)
        #expect(window.windowScene === scene)
        expectEqual(scene.windows, [window])
        application.lifecycle(.didBecomeActive)
        application.lifecycle(.willResignActive)
        expectEqual(delegate.log.entries.dropFirst(), ["application didBecomeActive", "application willResignActive"])
        expectEqual(scene.activationState, .foregroundInactive)
    }

    @Test func aDelegateClassThatCannotBeASceneDelegateIsReported() throws {
        let application = resetApplication()
        let delegate = ConfiguringDelegate()
        let configuration = UISceneConfiguration(name: "Main", sessionRole: .windowApplication)
        configuration.delegateClass = NSObject.self
        delegate.configuration = configuration
        application.delegate = delegate

        application.connectScene()
        let scene = try #require(application.connectedScenes.first as? UIWindowScene)
        #expect(scene.delegate == nil)
        expectEqual(application.diagnostics.entries.map(\.kind), [.application])
    }

    @Test func aWindowMadeForASceneJoinsIt() throws {
        let application = resetApplication()
        application.connectScene()
        let scene = try #require(application.connectedScenes.first as? UIWindowScene)
        let window = UIWindow(windowScene: scene)
        #expect(window.windowScene === scene)
        expectEqual(window.frame, UIScreen.main.bounds)
        window.makeKeyAndVisible()
        #expect(scene.keyWindow === window)
        window.windowScene = nil
        #expect(scene.windows.isEmpty)
    }
}
