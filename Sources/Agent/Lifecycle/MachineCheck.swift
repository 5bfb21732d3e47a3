public import KioskConfiguration
import Foundation
public import Templates

/// What a configuration needs of this machine, checked before it is put in
/// force (at start and on reload): its folders exist and are writable, and
/// the templates it names exist. GPIO lines are not opened here; a button
/// or light that cannot be used is reported when it starts, and the rest of
/// the agent works without it.
public enum MachineCheck {
    public static func problems(in configuration: AgentConfiguration, catalog: TemplateCatalog) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        for folder in configuration.folders {
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) || !isFolder.boolValue {
                problems.append(ConfigurationProblem(key: "\(folder.key).path", message:
                    "\(folder.path) is not a folder on this machine. Create it (mkdir -p \(folder.path), owned by the "
                    + "kioskprint user), or correct the path."))
            } else if access(folder.path, W_OK | X_OK) != 0 {
                problems.append(ConfigurationProblem(key: "\(folder.key).path", message:
                    "\(folder.path) is not writable by this user, so dropped files cannot be claimed. "
                    + "Give the kioskprint user write access (chown kioskprint \(folder.path))."))
            }
            if let template = folder.template { problems += missing(template, key: "\(folder.key).template", catalog: catalog) }
        }
        for button in configuration.buttons {
            for (action, key) in [(button.press, "press"), (button.longPress, "long-press")] {
                if case .print(let print)? = action {
                    problems += missing(print.template, key: "\(button.key).\(key).print", catalog: catalog)
                }
            }
        }
        return problems
    }

    private static func missing(_ template: String, key: String, catalog: TemplateCatalog) -> [ConfigurationProblem] {
        do {
            _ = try catalog.find(template)
            return []
        } catch {
            return [ConfigurationProblem(key: key, message: "\(error)")]
        }
    }
}
