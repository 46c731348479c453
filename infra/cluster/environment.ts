// The launcher is a composition root like infra/bin: it hands the operator's environment on to the
// hub processes it starts (LOG_LEVEL, PARTITIONS, ADMIN_TOKEN …), so it reads process.env here,
// in this one place.

export function operatorEnv(): NodeJS.ProcessEnv {
  return { ...process.env };
}
