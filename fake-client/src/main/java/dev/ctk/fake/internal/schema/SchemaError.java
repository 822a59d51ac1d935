package dev.ctk.fake.internal.schema;

/**
 * One field error a schema check found, as kube reports it in a 422 Invalid {@code Status}.
 *
 * @param type kube's cause type, e.g. {@code FieldValueInvalid}
 * @param field the field path, e.g. {@code spec.replicas}
 * @param body the error text without the path, e.g.
 *     {@code Invalid value: 0: spec.replicas in body should be greater than or equal to 1}
 */
public record SchemaError(String type, String field, String body) {
}
