package dev.ctk.fake.internal.patch;

import static dev.ctk.fake.internal.patch.Json.json;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Stored objects the strategic-merge-patch tests patch, shaped as kube-apiserver stores them. */
final class Objects {

  private Objects() {}

  static final String POD_SPEC = """
      {containers: [
          {name: 'web', image: 'nginx:1.25',
           ports: [{containerPort: 80, protocol: 'TCP'}, {containerPort: 443, protocol: 'TCP'}],
           env: [{name: 'MODE', value: 'prod'}, {name: 'LOG', value: 'info'}],
           volumeMounts: [{name: 'cfg', mountPath: '/etc/cfg'}],
           args: ['--a', '--b']},
          {name: 'sidecar', image: 'envoy:1.0'}],
       volumes: [{name: 'cfg', configMap: {name: 'web-cfg'}}],
       nodeSelector: {disk: 'ssd'},
       tolerations: [{key: 'k1', operator: 'Exists'}, {key: 'k2', operator: 'Exists'}]}
      """;

  static final Map<String, JsonNode> STORED = Map.of(
      "Deployment", json("""
          {apiVersion: 'apps/v1', kind: 'Deployment',
           metadata: {name: 'web', namespace: 'default', labels: {app: 'web', tier: 'fe'},
                      finalizers: ['a.example.com/x'],
                      ownerReferences: [{apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1'}]},
           spec: {replicas: 2, selector: {matchLabels: {app: 'web'}},
                  strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: '25%', maxUnavailable: '25%'}},
                  template: {metadata: {labels: {app: 'web'}}, spec: POD_SPEC}},
           status: {conditions: [{type: 'Available', status: 'False'}, {type: 'Progressing', status: 'True'}]}}
          """.replace("POD_SPEC", POD_SPEC)),
      "Pod", json("""
          {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'web-1', namespace: 'default', finalizers: []},
           spec: POD_SPEC,
           status: {phase: 'Pending',
                    conditions: [{type: 'Ready', status: 'False'}, {type: 'Initialized', status: 'True'}],
                    podIPs: [{ip: '10.0.0.5'}],
                    containerStatuses: [{name: 'web', ready: false}, {name: 'sidecar', ready: false}]}}
          """.replace("POD_SPEC", POD_SPEC)),
      "Service", json("""
          {apiVersion: 'v1', kind: 'Service', metadata: {name: 'web', namespace: 'default'},
           spec: {selector: {app: 'web'},
                  ports: [{name: 'http', port: 80, targetPort: 8080, protocol: 'TCP'},
                          {name: 'https', port: 443, targetPort: 8443, protocol: 'TCP'}]}}
          """),
      "Node", json("""
          {apiVersion: 'v1', kind: 'Node', metadata: {name: 'node-1'},
           spec: {podCIDRs: ['10.0.0.0/24'], taints: [{key: 'a', effect: 'NoSchedule'}]},
           status: {addresses: [{type: 'InternalIP', address: '192.168.0.1'}, {type: 'Hostname', address: 'node-1'}],
                    conditions: [{type: 'Ready', status: 'True'}]}}
          """),
      "ConfigMap", json("""
          {apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'cfg', namespace: 'default', finalizers: ['x']},
           data: {a: '1', b: '2'}}
          """),
      "ServiceAccount", json("""
          {apiVersion: 'v1', kind: 'ServiceAccount', metadata: {name: 'sa', namespace: 'default'},
           secrets: [{name: 'token-a'}], imagePullSecrets: [{name: 'reg-a'}]}
          """),
      "Namespace", json("""
          {apiVersion: 'v1', kind: 'Namespace', metadata: {name: 'team-a'},
           status: {phase: 'Active', conditions: [{type: 'NamespaceDeletionDiscoveryFailure', status: 'False'}]}}
          """),
      "Ingress", json("""
          {apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: {name: 'web', namespace: 'default', finalizers: ['x']},
           spec: {rules: [{host: 'a.example.com'}, {host: 'b.example.com'}]}}
          """));

  /** A workload kind whose pod template sits at {@code templatePath}, for the same patch on every kind. */
  static JsonNode workload(String kind, String templatePointer) {
    ObjectNode object = (ObjectNode) json("{apiVersion: 'x', kind: '" + kind + "', metadata: {name: 'w'}}");
    JsonNode template = json("{metadata: {labels: {app: 'w'}}, spec: " + POD_SPEC + "}");
    return with(object, templatePointer, template);
  }

  /** A copy of {@code doc} with the value at {@code pointer} set (creating objects on the way) or removed. */
  static JsonNode with(JsonNode doc, String pointer, JsonNode value) {
    JsonNode copy = doc.deepCopy();
    JsonPointer path = JsonPointer.compile(pointer);
    JsonNode parent = copy;
    for (JsonPointer step = path; !step.tail().matches(); step = step.tail()) {
      JsonNode next = parent.isArray() ? parent.get(step.getMatchingIndex()) : parent.get(step.getMatchingProperty());
      if (next == null) {
        next = ((ObjectNode) parent).putObject(step.getMatchingProperty());
      }
      parent = next;
    }
    JsonPointer last = path.last();
    if (parent.isArray()) {
      ((ArrayNode) parent).set(last.getMatchingIndex(), value);
    } else if (value == null) {
      ((ObjectNode) parent).remove(last.getMatchingProperty());
    } else {
      ((ObjectNode) parent).set(last.getMatchingProperty(), value);
    }
    return copy;
  }
}
