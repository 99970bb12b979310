// `npm start` writes the endpoint of its DynamoDB Local here (inside DATA_DIR), so the admin command can
// use the running database instead of opening the same files twice.
export const ENDPOINT_FILE = 'dynamodb.endpoint';
