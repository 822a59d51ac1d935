package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube's Job strategy adds on create once the uid is known (unless {@code spec.manualSelector} is true): the
 * template labels {@code controller-uid}, {@code batch.kubernetes.io/controller-uid}, {@code job-name} and
 * {@code batch.kubernetes.io/job-name}, and a selector matching {@code batch.kubernetes.io/controller-uid}.
 */
final class JobSelector {

  private JobSelector() {}

  static void generate(ObjectNode job) {
    ObjectNode spec = Json.object(job, "spec");
    if (spec.path("manualSelector").asBoolean(false)) {
      return;
    }
    String uid = job.path("metadata").path("uid").asText();
    String name = job.path("metadata").path("name").asText();
    ObjectNode labels = Json.object(Json.object(Json.object(spec, "template"), "metadata"), "labels");
    Json.putIfAbsent(labels, "batch.kubernetes.io/controller-uid", uid);
    Json.putIfAbsent(labels, "batch.kubernetes.io/job-name", name);
    Json.putIfAbsent(labels, "controller-uid", uid);
    Json.putIfAbsent(labels, "job-name", name);
    ObjectNode matchLabels = Json.object(Json.object(spec, "selector"), "matchLabels");
    Json.putIfAbsent(matchLabels, "batch.kubernetes.io/controller-uid", uid);
  }
}
