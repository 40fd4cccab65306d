#if canImport(Glibc)
import Glibc
#endif
import UIKit

/// An application in the shape of Xcode's iOS App template since iOS 13 (an
/// application delegate and a scene delegate, neither final, the scene's
/// configuration named "Default Configuration" as the template's
/// Info.plist names it), for the end-to-end tests of scenes. Each life-cycle
/// call prints a line; a touch on the window prints where it landed.
@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        log("didFinishLaunching")
        return true
    }

    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        log("configurationForConnecting")
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }

    // With a scene delegate, iOS tells these to the scene instead.
    func applicationDidBecomeActive(_ application: UIApplication) { log("application didBecomeActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { log("application didEnterBackground") }
    func applicationWillTerminate(_ application: UIApplication) { log("applicationWillTerminate") }
}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = (scene as? UIWindowScene) else { return }
        window = UIWindow(windowScene: windowScene)
        window?.rootViewController = ViewController()
        window?.makeKeyAndVisible()
        log("willConnect windows \(windowScene.windows.count) connected \(UIApplication.shared.connectedScenes.count)")
    }

    func sceneDidDisconnect(_ scene: UIScene) { log("sceneDidDisconnect") }
    func sceneDidBecomeActive(_ scene: UIScene) { log("sceneDidBecomeActive \(scene.activationState == .foregroundActive)") }
    func sceneWillResignActive(_ scene: UIScene) { log("sceneWillResignActive") }
    func sceneWillEnterForeground(_ scene: UIScene) { log("sceneWillEnterForeground") }
    func sceneDidEnterBackground(_ scene: UIScene) { log("sceneDidEnterBackground \(scene.activationState == .background)") }
}

class ViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(TouchReportingView(frame: view.bounds))
    }
}

final class TouchReportingView: UIView {
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self) else { return }
        log("touched \(Int(point.x)),\(Int(point.y))")
    }
}

func log(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
