package dev.ctk.contract.scenarios;

/**
 * The objects scenarios send, as JSON text: small, valid, and the same on every target.
 */
final class Manifests {

  private Manifests() {
  }

  static String configMap(String name) {
    return configMap(name, "{}");
  }

  static String configMap(String name, String labels) {
    return """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","labels":%s},"data":{"k":"v"}}"""
        .formatted(name, labels);
  }

  static String deployment(String name) {
    return """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%1$s"},
         "spec":{"selector":{"matchLabels":{"app":"%1$s"}},
                 "template":{"metadata":{"labels":{"app":"%1$s"}},
                             "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}}}"""
        .formatted(name);
  }

  static String twoContainerDeployment(String name) {
    return """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%1$s"},
         "spec":{"selector":{"matchLabels":{"app":"%1$s"}},
                 "template":{"metadata":{"labels":{"app":"%1$s"}},
                             "spec":{"containers":[
                               {"name":"main","image":"nginx:1.25","env":[{"name":"A","value":"1"}]},
                               {"name":"sidecar","image":"envoy:1.30"}]}}}}"""
        .formatted(name);
  }

  static String pod(String name) {
    return """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
         "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}"""
        .formatted(name);
  }

  static String service(String name) {
    return """
        {"apiVersion":"v1","kind":"Service","metadata":{"name":"%s"},
         "spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}"""
        .formatted(name);
  }

  /**
   * CRD {@code widgets.<group>}, kind Widget, namespaced; served in {@code v1} (storage) and {@code v1beta1} with one
   * structural schema: {@code spec.size} integer 1..10, {@code spec.color} enum red/blue defaulting to red,
   * {@code spec.name} string with a pattern, {@code spec.replicas}, required {@code spec.size}; {@code status}
   * and {@code scale} subresources.
   */
  static String widgetCrd(String group) {
    String schema = """
        {"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","required":["size"],"properties":{
            "size":{"type":"integer","minimum":1,"maximum":10},
            "color":{"type":"string","enum":["red","blue"],"default":"red"},
            "name":{"type":"string","pattern":"^[a-z]+$"},
            "replicas":{"type":"integer"}}},
          "status":{"type":"object","properties":{
            "ready":{"type":"boolean"},"replicas":{"type":"integer"},"selector":{"type":"string"}}}}}}""";
    String subresources = """
        {"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas",
         "labelSelectorPath":".status.selector"}}""";
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"widgets.%1$s"},
         "spec":{"group":"%1$s","scope":"Namespaced",
           "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
           "versions":[
             {"name":"v1","served":true,"storage":true,"schema":%2$s,"subresources":%3$s,
              "additionalPrinterColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size"}]},
             {"name":"v1beta1","served":true,"storage":false,"schema":%2$s,"subresources":%3$s}]}}"""
        .formatted(group, schema, subresources);
  }

  static String widget(String group, String version, String name, String spec) {
    return """
        {"apiVersion":"%s/%s","kind":"Widget","metadata":{"name":"%s"},"spec":%s}"""
        .formatted(group, version, name, spec);
  }
}
