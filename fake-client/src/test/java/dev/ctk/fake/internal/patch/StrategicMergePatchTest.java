package dev.ctk.fake.internal.patch;

import static dev.ctk.fake.internal.patch.Json.json;
import static dev.ctk.fake.internal.patch.Objects.STORED;
import static dev.ctk.fake.internal.patch.Objects.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strategic merge patch on stored objects from {@link Objects}: each case patches one object and
 * states the value expected at one JSON pointer; everything else must stay as stored.
 */
class StrategicMergePatchTest {

  private static final String CONTAINERS = "/spec/template/spec/containers";
  private static final String WEB = CONTAINERS + "/0";

  static Stream<Arguments> patched() {
    return Stream.of(
        // lists merged by merge key
        arguments("patching one container's image by name keeps the other containers", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', image: 'nginx:1.27'}]}}}}",
            WEB + "/image", "'nginx:1.27'"),
        arguments("a container added without $setElementOrder comes first, as in kube", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'logger', image: 'busybox'}]}}}}",
            CONTAINERS, "[{name: 'logger', image: 'busybox'}, " + storedWeb() + ", {name: 'sidecar', image: 'envoy:1.0'}]"),
        arguments("$setElementOrder puts an added container where the client wants it", "apps", "Deployment",
            "{spec: {template: {spec: {'$setElementOrder/containers': [{name: 'web'}, {name: 'sidecar'}, {name: 'logger'}],"
                + " containers: [{name: 'logger', image: 'busybox'}]}}}}",
            CONTAINERS, "[" + storedWeb() + ", {name: 'sidecar', image: 'envoy:1.0'}, {name: 'logger', image: 'busybox'}]"),
        arguments("$setElementOrder alone reorders the stored containers", "apps", "Deployment",
            "{spec: {template: {spec: {'$setElementOrder/containers': [{name: 'sidecar'}, {name: 'web'}]}}}}",
            CONTAINERS, "[{name: 'sidecar', image: 'envoy:1.0'}, " + storedWeb() + "]"),
        arguments("$patch: delete removes a container", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'sidecar', '$patch': 'delete'}]}}}}",
            CONTAINERS, "[" + storedWeb() + "]"),
        arguments("$patch: delete of a container that is not there changes nothing", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'ghost', '$patch': 'delete'}]}}}}",
            CONTAINERS, "[" + storedWeb() + ", {name: 'sidecar', image: 'envoy:1.0'}]"),
        arguments("$patch: replace as a list element replaces the whole list", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'only', image: 'x', badField: null}, {'$patch': 'replace'}]}}}}",
            CONTAINERS, "[{name: 'only', image: 'x'}]"),
        arguments("env merges by name: one changed, one added after the stored ones it follows", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', env: [{name: 'LOG', value: 'debug'}, {name: 'NEW', value: '1'}]}]}}}}",
            WEB + "/env", "[{name: 'MODE', value: 'prod'}, {name: 'LOG', value: 'debug'}, {name: 'NEW', value: '1'}]"),
        arguments("an env var removed with $patch: delete", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', env: [{name: 'MODE', '$patch': 'delete'}]}]}}}}",
            WEB + "/env", "[{name: 'LOG', value: 'info'}]"),
        arguments("a null field inside a merged env var removes it", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', env: [{name: 'MODE', value: null, valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}}]}]}}}}",
            WEB + "/env", "[{name: 'MODE', valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}}, {name: 'LOG', value: 'info'}]"),
        arguments("container ports merge on containerPort", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', ports: [{containerPort: 443, name: 'https'}, {containerPort: 8080}]}]}}}}",
            WEB + "/ports", "[{containerPort: 80, protocol: 'TCP'}, {containerPort: 443, protocol: 'TCP', name: 'https'}, {containerPort: 8080}]"),
        arguments("volumeMounts merge on mountPath", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', volumeMounts: [{name: 'cfg2', mountPath: '/etc/cfg', readOnly: true}]}]}}}}",
            WEB + "/volumeMounts", "[{name: 'cfg2', mountPath: '/etc/cfg', readOnly: true}]"),
        arguments("volumes merge on name", "apps", "Deployment",
            "{spec: {template: {spec: {volumes: [{name: 'data', emptyDir: {}}]}}}}",
            "/spec/template/spec/volumes", "[{name: 'data', emptyDir: {}}, {name: 'cfg', configMap: {name: 'web-cfg'}}]"),
        arguments("ownerReferences merge on uid", "apps", "Deployment",
            "{metadata: {ownerReferences: [{apiVersion: 'v1', kind: 'Secret', name: 'other', uid: 'u2'}]}}",
            "/metadata/ownerReferences",
            "[{apiVersion: 'v1', kind: 'Secret', name: 'other', uid: 'u2'}, {apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1'}]"),
        arguments("status conditions merge on type", "apps", "Deployment",
            "{status: {conditions: [{type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable'}]}}",
            "/status/conditions",
            "[{type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable'}, {type: 'Progressing', status: 'True'}]"),
        // lists replaced
        arguments("args have no strategy: replaced", "apps", "Deployment",
            "{spec: {template: {spec: {containers: [{name: 'web', args: ['--c']}]}}}}",
            WEB + "/args", "['--c']"),
        arguments("tolerations are atomic in kube: replaced", "apps", "Deployment",
            "{spec: {template: {spec: {tolerations: [{key: 'k3', operator: 'Exists'}]}}}}",
            "/spec/template/spec/tolerations", "[{key: 'k3', operator: 'Exists'}]"),
        arguments("a replaced list loses null members and directive keys of its elements", "apps", "Deployment",
            "{spec: {template: {spec: {tolerations: [{key: 'k3', operator: null, '$x': 1}]}}}}",
            "/spec/template/spec/tolerations", "[{key: 'k3'}]"),
        // primitive lists merged as sets
        arguments("finalizers merge as a set, the new one first", "apps", "Deployment",
            "{metadata: {finalizers: ['b.example.com/y', 'a.example.com/x']}}",
            "/metadata/finalizers", "['b.example.com/y', 'a.example.com/x']"),
        arguments("a finalizer already there is not duplicated", "apps", "Deployment",
            "{metadata: {finalizers: ['a.example.com/x']}}",
            "/metadata/finalizers", "['a.example.com/x']"),
        arguments("$deleteFromPrimitiveList removes a finalizer", "apps", "Deployment",
            "{metadata: {'$deleteFromPrimitiveList/finalizers': ['a.example.com/x']}}",
            "/metadata/finalizers", "[]"),
        arguments("$deleteFromPrimitiveList of a value that is not there keeps the list", "apps", "Deployment",
            "{metadata: {'$deleteFromPrimitiveList/finalizers': ['nope']}}",
            "/metadata/finalizers", "['a.example.com/x']"),
        arguments("$deleteFromPrimitiveList of a missing list does not create it", "", "Service",
            "{metadata: {'$deleteFromPrimitiveList/finalizers': ['x']}}",
            "/metadata/finalizers", null),
        // maps
        arguments("a null label is removed, a new one added, others kept", "apps", "Deployment",
            "{metadata: {labels: {tier: null, team: 'a'}}}",
            "/metadata/labels", "{app: 'web', team: 'a'}"),
        arguments("$patch: replace on a map replaces it", "apps", "Deployment",
            "{spec: {template: {metadata: {labels: {'$patch': 'replace', version: 'v2'}}}}}",
            "/spec/template/metadata/labels", "{version: 'v2'}"),
        arguments("$patch: delete on a map empties it", "apps", "Deployment",
            "{spec: {template: {spec: {nodeSelector: {'$patch': 'delete'}}}}}",
            "/spec/template/spec/nodeSelector", "{}"),
        arguments("$retainKeys switches the rollout strategy and drops rollingUpdate", "apps", "Deployment",
            "{spec: {strategy: {'$retainKeys': ['type'], type: 'Recreate', rollingUpdate: null}}}",
            "/spec/strategy", "{type: 'Recreate'}"),
        arguments("a new key's value loses null members and maps carrying $patch", "apps", "Deployment",
            "{spec: {template: {spec: {securityContext: {runAsUser: 1000, fsGroup: null, seLinuxOptions: {'$patch': 'delete'}}}}}}",
            "/spec/template/spec/securityContext", "{runAsUser: 1000}"),
        arguments("kube: a new map carrying $patch: replace is dropped", "apps", "Deployment",
            "{spec: {template: {metadata: {annotations: {'$patch': 'replace', a: 'b'}}}}}",
            "/spec/template/metadata/annotations", null),
        arguments("a scalar is replaced", "apps", "Deployment", "{spec: {replicas: 5}}", "/spec/replicas", "5"),
        arguments("a value of another type replaces the stored one", "apps", "Deployment",
            "{spec: {template: {spec: {nodeSelector: ['not', 'a', 'map']}}}}",
            "/spec/template/spec/nodeSelector", "['not', 'a', 'map']"),
        arguments("an unknown $ key is ignored, as decoding into the Go type ignores it", "apps", "Deployment",
            "{spec: {'$unknown': 1}}", "/spec/replicas", "2"),
        // other kinds: the merge key depends on where the list is
        arguments("Service ports merge on port, not containerPort", "", "Service",
            "{spec: {ports: [{port: 80, targetPort: 9090}]}}",
            "/spec/ports",
            "[{name: 'http', port: 80, targetPort: 9090, protocol: 'TCP'}, {name: 'https', port: 443, targetPort: 8443, protocol: 'TCP'}]"),
        arguments("a Service port removed with $patch: delete", "", "Service",
            "{spec: {ports: [{port: 443, '$patch': 'delete'}]}}",
            "/spec/ports", "[{name: 'http', port: 80, targetPort: 8080, protocol: 'TCP'}]"),
        arguments("Pod status conditions merge on type", "", "Pod",
            "{status: {conditions: [{type: 'Ready', status: 'True'}]}}",
            "/status/conditions", "[{type: 'Ready', status: 'True'}, {type: 'Initialized', status: 'True'}]"),
        arguments("Pod podIPs merge on ip", "", "Pod",
            "{status: {podIPs: [{ip: 'fd00::5'}]}}",
            "/status/podIPs", "[{ip: 'fd00::5'}, {ip: '10.0.0.5'}]"),
        arguments("Pod containerStatuses have no strategy: replaced", "", "Pod",
            "{status: {containerStatuses: [{name: 'web', ready: true}]}}",
            "/status/containerStatuses", "[{name: 'web', ready: true}]"),
        arguments("Pod containers merge on name", "", "Pod",
            "{spec: {containers: [{name: 'sidecar', image: 'envoy:2.0'}]}}",
            "/spec/containers/1/image", "'envoy:2.0'"),
        arguments("Node podCIDRs merge as a set", "", "Node",
            "{spec: {podCIDRs: ['fd00::/64']}}", "/spec/podCIDRs", "['fd00::/64', '10.0.0.0/24']"),
        arguments("Node taints are replaced", "", "Node",
            "{spec: {taints: [{key: 'b', effect: 'NoExecute'}]}}", "/spec/taints", "[{key: 'b', effect: 'NoExecute'}]"),
        arguments("Node addresses merge on type", "", "Node",
            "{status: {addresses: [{type: 'InternalIP', address: '192.168.0.2'}]}}",
            "/status/addresses", "[{type: 'InternalIP', address: '192.168.0.2'}, {type: 'Hostname', address: 'node-1'}]"),
        arguments("ServiceAccount secrets merge on name", "", "ServiceAccount",
            "{secrets: [{name: 'token-b'}]}", "/secrets", "[{name: 'token-b'}, {name: 'token-a'}]"),
        arguments("ServiceAccount imagePullSecrets have no strategy: replaced", "", "ServiceAccount",
            "{imagePullSecrets: [{name: 'reg-b'}]}", "/imagePullSecrets", "[{name: 'reg-b'}]"),
        arguments("Namespace conditions merge on type", "", "Namespace",
            "{status: {conditions: [{type: 'NamespaceDeletionContentFailure', status: 'False'}]}}", "/status/conditions",
            "[{type: 'NamespaceDeletionContentFailure', status: 'False'}, {type: 'NamespaceDeletionDiscoveryFailure', status: 'False'}]"),
        arguments("ConfigMap data merges, null removes a key", "", "ConfigMap",
            "{data: {a: null, c: '3'}}", "/data", "{b: '2', c: '3'}"),
        arguments("a kind the table does not know still merges finalizers", "networking.k8s.io", "Ingress",
            "{metadata: {finalizers: ['y']}}", "/metadata/finalizers", "['y', 'x']"),
        arguments("a kind the table does not know replaces its lists", "networking.k8s.io", "Ingress",
            "{spec: {rules: [{host: 'c.example.com'}]}}", "/spec/rules", "[{host: 'c.example.com'}]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("patched")
  void patches(String description, String group, String kind, String patch, String pointer, String expectedAt) {
    // GIVEN
    JsonNode stored = STORED.get(kind);
    JsonNode expected = with(stored, pointer, expectedAt == null ? null : json(expectedAt));
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(stored, json(patch), PatchSchema.forType(kind));
    // THEN
    assertThat(patched).isEqualTo(expected);
  }

  private static String storedWeb() {
    return Objects.STORED.get("Deployment").at(CONTAINERS).get(0).toString().replace("\"", "'");
  }

  /** The same container patch reaches the pod template of every workload kind. */
  static Stream<Arguments> workloads() {
    return Stream.of(
        arguments("", "ReplicationController", "/spec/template", "/spec/template/spec/containers"),
        arguments("apps", "Deployment", "/spec/template", "/spec/template/spec/containers"),
        arguments("apps", "ReplicaSet", "/spec/template", "/spec/template/spec/containers"),
        arguments("apps", "StatefulSet", "/spec/template", "/spec/template/spec/containers"),
        arguments("apps", "DaemonSet", "/spec/template", "/spec/template/spec/containers"),
        arguments("batch", "Job", "/spec/template", "/spec/template/spec/containers"),
        arguments("batch", "CronJob", "/spec/jobTemplate/spec/template", "/spec/jobTemplate/spec/template/spec/containers"));
  }

  @ParameterizedTest(name = "{0}/{1}")
  @MethodSource("workloads")
  void merges_pod_template_containers_of(String group, String kind, String templatePointer, String containersPointer) {
    // GIVEN
    JsonNode stored = Objects.workload(kind, templatePointer);
    JsonNode patch = with(json("{}"), containersPointer,
        json("[{name: 'sidecar', image: 'envoy:2.0', env: [{name: 'X', value: '1'}]}]"));
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(stored, patch, PatchSchema.forType(kind));
    // THEN
    JsonNode containers = patched.at(containersPointer);
    assertThat(containers.size()).isEqualTo(2);
    assertThat(containers.get(0)).isEqualTo(stored.at(containersPointer).get(0));
    assertThat(containers.get(1)).isEqualTo(json("{name: 'sidecar', image: 'envoy:2.0', env: [{name: 'X', value: '1'}]}"));
    assertThat(patched.at(containersPointer.replace("/containers", "/tolerations")))
        .isEqualTo(stored.at(containersPointer.replace("/containers", "/tolerations")));
  }

  @Test
  void keeps_server_only_items_between_the_items_a_client_orders() {
    // GIVEN: a controller added X to the env list a client manages as [A, B]
    JsonNode stored = json("{spec: {template: {spec: {containers: [{name: 'web', env: [{name: 'A'}, {name: 'X'}, {name: 'B'}]}]}}}}");
    JsonNode patch = json("{spec: {template: {spec: {containers: [{name: 'web',"
        + " '$setElementOrder/env': [{name: 'C'}, {name: 'A'}, {name: 'B'}], env: [{name: 'C', value: '3'}]}]}}}}");
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(stored, patch, PatchSchema.forType("Deployment"));
    // THEN
    assertThat(patched.at(WEB + "/env")).isEqualTo(json("[{name: 'C', value: '3'}, {name: 'A'}, {name: 'X'}, {name: 'B'}]"));
  }

  @Test
  void replaces_a_disruption_budgets_selector_and_merges_conditions_by_type() {
    // GIVEN: policy/v1 tags the selector patchStrategy:"replace", and PDB and HPA v2 conditions merge on type
    JsonNode pdb = json("{spec: {selector: {matchLabels: {app: 'a'}}}, status: {conditions: ["
        + "{type: 'DisruptionAllowed', status: 'True'}, {type: 'Other', status: 'True'}]}}");
    JsonNode hpa = json("{status: {conditions: [{type: 'AbleToScale', status: 'True'}, {type: 'ScalingActive', "
        + "status: 'True'}]}}");
    // WHEN
    JsonNode patchedPdb = StrategicMergePatch.apply(pdb, json("{spec: {selector: {matchLabels: {app2: 'b'}}}, "
        + "status: {conditions: [{type: 'DisruptionAllowed', status: 'False'}]}}"),
        PatchSchema.forType("PodDisruptionBudget"));
    JsonNode patchedHpa = StrategicMergePatch.apply(hpa, json("{status: {conditions: [{type: 'ScalingActive', "
        + "status: 'False'}]}}"), PatchSchema.forType("HorizontalPodAutoscaler"));
    // THEN
    assertThat(patchedPdb.at("/spec/selector")).isEqualTo(json("{matchLabels: {app2: 'b'}}"));
    assertThat(patchedPdb.at("/status/conditions")).isEqualTo(json("[{type: 'DisruptionAllowed', status: 'False'}, "
        + "{type: 'Other', status: 'True'}]"));
    assertThat(patchedHpa.at("/status/conditions")).isEqualTo(json("[{type: 'AbleToScale', status: 'True'}, "
        + "{type: 'ScalingActive', status: 'False'}]"));
  }

  @Test
  void keeps_server_only_values_of_a_primitive_list_in_place() {
    // GIVEN: f4 was added by someone else between f1 and f2
    JsonNode stored = json("{metadata: {name: 'cfg', finalizers: ['f1', 'f4', 'f2']}}");
    JsonNode patch = json("{metadata: {'$setElementOrder/finalizers': ['f3', 'f1', 'f2'], finalizers: ['f3']}}");
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(stored, patch, PatchSchema.forType("ConfigMap"));
    // THEN
    assertThat(patched.at("/metadata/finalizers")).isEqualTo(json("['f3', 'f1', 'f4', 'f2']"));
  }

  @Test
  void applies_a_kubectl_apply_patch() {
    // GIVEN: what kubectl apply sends after the manifest changed image, dropped LOG, added a port and a label
    JsonNode patch = json("""
        {metadata: {annotations: {'kubectl.kubernetes.io/last-applied-configuration': '{}'}, labels: {version: 'v2'}},
         spec: {template: {spec: {
           '$setElementOrder/containers': [{name: 'web'}, {name: 'sidecar'}],
           containers: [{name: 'web', image: 'nginx:1.27',
             '$setElementOrder/env': [{name: 'MODE'}],
             env: [{name: 'LOG', '$patch': 'delete'}],
             '$setElementOrder/ports': [{containerPort: 80}, {containerPort: 443}, {containerPort: 9090}],
             ports: [{containerPort: 9090, name: 'metrics'}]}]}}}}
        """);
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(STORED.get("Deployment"), patch, PatchSchema.forType("Deployment"));
    // THEN
    JsonNode web = patched.at(WEB);
    assertThat(web.get("image").textValue()).isEqualTo("nginx:1.27");
    assertThat(web.get("env")).isEqualTo(json("[{name: 'MODE', value: 'prod'}]"));
    assertThat(web.get("ports")).isEqualTo(json(
        "[{containerPort: 80, protocol: 'TCP'}, {containerPort: 443, protocol: 'TCP'}, {containerPort: 9090, name: 'metrics'}]"));
    assertThat(patched.at(CONTAINERS + "/1")).isEqualTo(json("{name: 'sidecar', image: 'envoy:1.0'}"));
    assertThat(patched.at("/metadata/labels")).isEqualTo(json("{app: 'web', tier: 'fe', version: 'v2'}"));
    assertThat(patched.at("/metadata/annotations")).isEqualTo(json("{'kubectl.kubernetes.io/last-applied-configuration': '{}'}"));
    assertThat(patched.toString()).doesNotContain("$setElementOrder").doesNotContain("$patch");
  }

  @Test
  void top_level_patch_directives_replace_or_empty_the_object() {
    // GIVEN
    JsonNode stored = STORED.get("ConfigMap");
    PatchSchema schema = PatchSchema.forType("ConfigMap");
    // WHEN
    JsonNode replaced = StrategicMergePatch.apply(stored, json("{'$patch': 'replace', metadata: {name: 'cfg'}, data: {z: '9'}}"), schema);
    JsonNode emptied = StrategicMergePatch.apply(stored, json("{'$patch': 'delete'}"), schema);
    // THEN
    assertThat(replaced).isEqualTo(json("{metadata: {name: 'cfg'}, data: {z: '9'}}"));
    assertThat(emptied).isEqualTo(json("{}"));
  }

  @Test
  void a_null_or_empty_patch_changes_nothing() {
    JsonNode stored = STORED.get("Deployment");
    PatchSchema schema = PatchSchema.forType("Deployment");
    assertThat(StrategicMergePatch.apply(stored, json("null"), schema)).isEqualTo(stored);
    assertThat(StrategicMergePatch.apply(stored, json("{}"), schema)).isEqualTo(stored);
  }

  @Test
  void the_empty_schema_replaces_every_list() {
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(STORED.get("Deployment"),
        json("{metadata: {finalizers: ['b']}}"), PatchSchema.empty());
    // THEN
    assertThat(patched.at("/metadata/finalizers")).isEqualTo(json("['b']"));
  }

  @Test
  void never_mutates_the_stored_object_or_the_patch() {
    // GIVEN
    JsonNode stored = STORED.get("Deployment");
    JsonNode storedBefore = stored.deepCopy();
    JsonNode patch = json("{metadata: {labels: {app: null}, '$deleteFromPrimitiveList/finalizers': ['a.example.com/x']},"
        + " spec: {strategy: {'$retainKeys': ['type'], type: 'Recreate'}, template: {spec: {"
        + "'$setElementOrder/containers': [{name: 'sidecar'}, {name: 'web'}],"
        + " containers: [{name: 'sidecar', image: 'x'}, {name: 'web', env: [{name: 'MODE', '$patch': 'delete'}]}]}}}}");
    JsonNode patchBefore = patch.deepCopy();
    // WHEN
    JsonNode patched = StrategicMergePatch.apply(stored, patch, PatchSchema.forType("Deployment"));
    // THEN
    assertThat(patched).isNotEqualTo(stored);
    assertThat(stored).isEqualTo(storedBefore);
    assertThat(patch).isEqualTo(patchBefore);
  }
}
