// The context of an example that sets the scene manifest at launch: the
// body of the application delegate's didFinishLaunching, and a scene
// delegate class.
// compile: -parse-as-library
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {}

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
// EXAMPLE
        return true
    }
}
